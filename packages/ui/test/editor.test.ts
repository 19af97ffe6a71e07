import test from 'ava';
import { getSchema } from '@tiptap/core';
import { createTable } from '@tiptap/extension-table';
import { checkboxLabel, richTextExtensions } from '../src/editor/extensions.js';

/** What Papers' server keeps (plugins/papers/src/services/documents.ts PAPER_NODES, with the document itself and text). */
const PAPER_NODES = ['doc', 'text', 'paragraph', 'heading', 'blockquote', 'bulletList', 'orderedList', 'listItem', 'taskList', 'taskItem', 'codeBlock', 'horizontalRule', 'hardBreak', 'table', 'tableRow', 'tableHeader', 'tableCell', 'image', 'mention'];

test('with blocks, the extension set adds checklists, tables and images, and every node type it produces is one Papers keeps', (t) => {
  const plain = Object.keys(getSchema(richTextExtensions({ collaborative: false })).nodes);
  const blocks = Object.keys(getSchema(richTextExtensions({ collaborative: true, blocks: true })).nodes);
  t.deepEqual(
    blocks.filter((name) => !plain.includes(name)),
    ['taskList', 'taskItem', 'table', 'tableRow', 'tableHeader', 'tableCell', 'image'],
  );
  t.deepEqual(plain.filter((name) => !PAPER_NODES.includes(name)), []);
  t.deepEqual(blocks.filter((name) => !PAPER_NODES.includes(name)), []);
  for (const name of ['taskList', 'taskItem', 'table', 'tableRow', 'tableHeader', 'tableCell', 'image']) t.false(plain.includes(name), name);
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
