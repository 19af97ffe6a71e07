import test from 'ava';
import { getSchema } from '@tiptap/core';
import { createTable } from '@tiptap/extension-table';
import * as Y from 'yjs';
import { CollabSession } from '../src/collab/session.js';
import { keepEmptyBlocksText } from '../src/editor/empty-blocks.js';
import { checkboxLabel, richTextExtensions } from '../src/editor/extensions.js';
import { RECORD_MRN } from '../src/editor/record-chips.js';
import { describeSuggestion, suggestedChanges } from '../src/editor/suggested-changes.js';

/** What Papers' server keeps (plugins/papers/src/services/documents.ts PAPER_NODES, with the document itself and text). */
const PAPER_NODES = ['doc', 'text', 'paragraph', 'heading', 'blockquote', 'bulletList', 'orderedList', 'listItem', 'taskList', 'taskItem', 'codeBlock', 'horizontalRule', 'hardBreak', 'table', 'tableRow', 'tableHeader', 'tableCell', 'image', 'mention', 'record'];

test('with blocks, the extension set adds checklists, tables, images and MRN chips, and every node type it produces is one Papers keeps', (t) => {
  const plain = Object.keys(getSchema(richTextExtensions({ collaborative: false })).nodes);
  const blocks = Object.keys(getSchema(richTextExtensions({ collaborative: true, blocks: true })).nodes);
  t.deepEqual(
    blocks.filter((name) => !plain.includes(name)),
    ['taskList', 'taskItem', 'table', 'tableRow', 'tableHeader', 'tableCell', 'image', 'record'],
  );
  t.deepEqual(plain.filter((name) => !PAPER_NODES.includes(name)), []);
  t.deepEqual(blocks.filter((name) => !PAPER_NODES.includes(name)), []);
  for (const name of ['taskList', 'taskItem', 'table', 'tableRow', 'tableHeader', 'tableCell', 'image', 'record']) t.false(plain.includes(name), name);
});

test('an MRN chip is an inline atom holding its MRN and label as the server keeps them; RECORD_MRN is search\'s mrn rule', (t) => {
  const schema = getSchema(richTextExtensions({ collaborative: true, blocks: true }));
  const json = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'See ' }, { type: 'record', attrs: { mrn: 'mrn:wiki:page:0b6f', label: 'Leave policy' } }] }] };
  const doc = schema.nodeFromJSON(json);
  t.notThrows(() => doc.check());
  t.deepEqual(doc.toJSON(), json);
  const chip = doc.firstChild!.lastChild!;
  t.true(chip.isInline && chip.isAtom);
  t.true(RECORD_MRN.test('mrn:ext.acme.crm:deal:a-1_b.2'));
  for (const bad of ['mrn:wiki:page', 'mrn:Wiki:page:1', 'https://x.test', 'mrn:wiki:page:a b']) t.false(RECORD_MRN.test(bad), bad);
});

test('a checklist nests, its items are checked or not, and a checklist item names its checkbox by its own text', (t) => {
  const schema = getSchema(richTextExtensions({ collaborative: true, blocks: true }));
  const item = (text: string, checked: boolean, nested?: unknown) => ({ type: 'taskItem', attrs: { checked }, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }, ...(nested ? [nested] : [])] });
  const json = { type: 'doc', content: [{ type: 'taskList', content: [item('Book the room', true, { type: 'taskList', content: [item('Ask Bob', false)] }), item('Send the agenda', false)] }] };
  const doc = schema.nodeFromJSON(json);
  t.notThrows(() => doc.check());
  t.deepEqual(doc.toJSON(), json);
  const first = doc.firstChild!.firstChild!;
  t.is(checkboxLabel(first), 'Done: Book the room');
  t.is(checkboxLabel(schema.nodeFromJSON({ type: 'taskItem', content: [{ type: 'paragraph' }] })), 'Done: empty item');
  t.is(schema.nodeFromJSON({ type: 'taskItem', content: [{ type: 'paragraph' }] }).attrs.checked, false);
  // A checklist holds checklist items only.
  t.throws(() => schema.nodeFromJSON({ type: 'taskList', content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }] }).check());
});

test('the Table button\'s table: 3×3, its first row header cells, each cell an empty paragraph', (t) => {
  const schema = getSchema(richTextExtensions({ collaborative: false, blocks: true }));
  const table = createTable(schema, 3, 3, true);
  t.notThrows(() => table.check());
  const rows = table.toJSON().content as Array<{ type: string; content: Array<{ type: string; content: unknown[] }> }>;
  t.deepEqual(rows.map((row) => row.type), ['tableRow', 'tableRow', 'tableRow']);
  t.deepEqual(rows.map((row) => row.content.map((cell) => cell.type)), [['tableHeader', 'tableHeader', 'tableHeader'], ['tableCell', 'tableCell', 'tableCell'], ['tableCell', 'tableCell', 'tableCell']]);
  t.deepEqual(rows[1]!.content[0], { type: 'tableCell', attrs: { align: null, colspan: 1, rowspan: 1, colwidth: null }, content: [{ type: 'paragraph' }] });
});

test('a text block this replica adds empty gets an empty Y.XmlText at once, so two members typing its first characters at once write into one text (issue 43)', (t) => {
  const textBlocks = new Set(['paragraph', 'heading', 'codeBlock']);
  const ann = new Y.Doc();
  const bob = new Y.Doc();
  const stops = [ann, bob].map((doc) => keepEmptyBlocksText(doc.getXmlFragment('default'), (name) => textBlocks.has(name)));
  const sent: Uint8Array[] = [];
  ann.on('update', (update: Uint8Array, origin: unknown) => origin !== 'remote' && sent.push(update));
  // Ann's Enter: an empty paragraph; a table cell's empty paragraph too; a list is not a text block.
  ann.transact(() => {
    const cell = new Y.XmlElement('tableCell');
    cell.insert(0, [new Y.XmlElement('paragraph')]);
    ann.getXmlFragment('default').insert(0, [new Y.XmlElement('paragraph'), cell, new Y.XmlElement('bulletList')]);
  }, 'editor');
  const [paragraph, cell, list] = ann.getXmlFragment('default').toArray() as Y.XmlElement[];
  t.true(paragraph!.get(0) instanceof Y.XmlText);
  t.is(paragraph!.length, 1);
  t.true((cell!.get(0) as Y.XmlElement).get(0) instanceof Y.XmlText);
  t.is(list!.length, 0);
  // Bob receives it; a remote block is not filled again.
  Y.applyUpdate(bob, Y.mergeUpdates(sent), 'remote');
  const bobParagraph = bob.getXmlFragment('default').get(0) as Y.XmlElement;
  t.is(bobParagraph.length, 1);
  // Both type the first characters at once: one text, each character once.
  (paragraph!.get(0) as Y.XmlText).insert(0, 'aaa');
  (bobParagraph.get(0) as Y.XmlText).insert(0, 'bbb');
  Y.applyUpdate(bob, Y.encodeStateAsUpdate(ann, Y.encodeStateVector(bob)), 'remote');
  Y.applyUpdate(ann, Y.encodeStateAsUpdate(bob, Y.encodeStateVector(ann)), 'remote');
  t.is(paragraph!.length, 1);
  t.is(bobParagraph.toString(), paragraph!.toString());
  t.true(['<paragraph>aaabbb</paragraph>', '<paragraph>bbbaaa</paragraph>'].includes(paragraph!.toString()), paragraph!.toString());
  // A block that stays filled is left alone, and once stopped nothing is added.
  stops.forEach((stop) => stop());
  ann.getXmlFragment('default').insert(3, [new Y.XmlElement('paragraph')]);
  t.is((ann.getXmlFragment('default').get(3) as Y.XmlElement).length, 0);
});

test('CollabSession sends an edit and the transactions it led to (an observer\'s follow-up) as one update', async (t) => {
  const session = new CollabSession();
  const sent: string[] = [];
  // As after a load: a transport, editable.
  Object.assign(session as unknown as Record<string, unknown>, { transport: { channel: 'test/1', load: () => Promise.reject(new Error('no')), send: (update: string) => (sent.push(update), Promise.resolve()) }, editable: true });
  const list = session.doc.getArray<string>('list');
  list.observe((_event, transaction) => {
    if (transaction.origin !== 'follow-up') session.doc.transact(() => list.push(['follow-up']), 'follow-up');
  });
  session.doc.transact(() => list.push(['edit']), 'editor');
  await new Promise((resolve) => setTimeout(resolve, 10));
  session.awareness.destroy();
  t.is(sent.length, 1, 'one update');
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Uint8Array.from(atob(sent[0]!), (char) => char.charCodeAt(0)));
  t.deepEqual(copy.getArray('list').toArray(), ['edit', 'follow-up']);
});

/** A document of paragraphs, as the editor's binding writes them (a `Y.XmlElement` each, holding a `Y.XmlText`). */
function paragraphs(doc: Y.Doc, ...lines: string[]): void {
  doc.getXmlFragment('default').insert(0, lines.map((line) => {
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText(line)]);
    return paragraph;
  }));
}
const textAt = (doc: Y.Doc, index: number) => (doc.getXmlFragment('default').get(index) as Y.XmlElement).get(0) as Y.XmlText;

test('a fork\'s changes are what it shows and the base does not (inserted) and the reverse (deleted), read from its Yjs items; everyone\'s edits received meanwhile are not among them', (t) => {
  const base = new Y.Doc();
  paragraphs(base, 'We launch soon', 'Old line', 'Budget');
  const fork = new Y.Doc({ gc: false });
  Y.applyUpdate(fork, Y.encodeStateAsUpdate(base));
  // The suggester replaces "soon" by "in June", removes the second paragraph and adds one at the end.
  textAt(fork, 0).delete(10, 4);
  textAt(fork, 0).insert(10, 'in June');
  fork.getXmlFragment('default').delete(1, 1);
  const added = new Y.XmlElement('paragraph');
  added.insert(0, [new Y.XmlText('New line')]);
  fork.getXmlFragment('default').push([added]);
  // Meanwhile someone edits the live document; the fork receives it too.
  const remote = new Y.Doc();
  Y.applyUpdate(remote, Y.encodeStateAsUpdate(base));
  textAt(remote, 2).insert(6, ': approved');
  const live = Y.encodeStateAsUpdate(remote, Y.encodeStateVector(base));
  Y.applyUpdate(base, live);
  Y.applyUpdate(fork, live);

  const changes = suggestedChanges(fork.getXmlFragment('default'), Y.snapshot(base)).map(({ kind, text, index, length, block }) => ({ kind, text, index, length, block }));
  t.deepEqual(changes, [
    { kind: 'delete', text: 'soon', index: 10, length: 0, block: false },
    { kind: 'insert', text: 'in June', index: 10, length: 7, block: false },
    { kind: 'delete', text: 'Old line', index: 1, length: 0, block: true },
    { kind: 'insert', text: 'New line', index: 2, length: 1, block: true },
  ]);
  // The update sent holds only the fork's own changes, and a reviewer reads the same from it against the live document.
  const update = Y.encodeStateAsUpdate(fork, Y.encodeStateVector(base));
  t.deepEqual(describeSuggestion(base, update), { inserted: ['in June', 'New line'], deleted: ['soon', 'Old line'] });
  Y.applyUpdate(base, update);
  t.deepEqual(base.getXmlFragment('default').toArray().map((paragraph) => (paragraph as Y.XmlElement).get(0).toString()), ['We launch in June', 'Budget: approved', 'New line']);
  t.deepEqual(suggestedChanges(fork.getXmlFragment('default'), Y.snapshot(base)), [], 'once merged, nothing is a change');
});
