import test from 'ava';
import * as Y from 'yjs';
import { RECORD_MRN, richTextBadRecord, richTextFromFragment, richTextMentions, richTextPlain, richTextTypes, writeRichText, type RichTextNode } from './rich-text.js';

const sample: RichTextNode = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Plan' }] },
    { type: 'paragraph', content: [{ type: 'text', text: 'Ship ' }, { type: 'text', text: 'today', marks: [{ type: 'bold' }] }, { type: 'text', text: '.' }] },
    { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] }] },
    { type: 'paragraph' },
  ],
};

test('rich text written into a Y.XmlFragment reads back as the same ProseMirror JSON', (t) => {
  const doc = new Y.Doc();
  writeRichText(doc.getXmlFragment('default'), sample);
  t.deepEqual(richTextFromFragment(doc.getXmlFragment('default')), sample);
  // Another replica that receives the state reads the same JSON.
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
  t.deepEqual(richTextFromFragment(other.getXmlFragment('default')), sample);
});

test('concurrent edits in two replicas converge to one JSON snapshot', (t) => {
  const a = new Y.Doc();
  writeRichText(a.getXmlFragment('default'), { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'ab' }] }] });
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const textOf = (doc: Y.Doc) => ((doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText);
  textOf(a).insert(1, 'X');
  textOf(b).insert(2, 'Y', { italic: {} });
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const json = richTextFromFragment(a.getXmlFragment('default'));
  t.deepEqual(json, richTextFromFragment(b.getXmlFragment('default')));
  t.deepEqual(json, { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'aXb' }, { type: 'text', text: 'Y', marks: [{ type: 'italic' }] }] }] });
});

test('plain text has one line per block; types lists every node and mark', (t) => {
  t.is(richTextPlain(sample), 'Plan\nShip today.\none');
  const { nodes, marks } = richTextTypes(sample);
  t.deepEqual([...nodes].sort(), ['bulletList', 'doc', 'heading', 'listItem', 'paragraph', 'text']);
  t.deepEqual([...marks], ['bold']);
});

test('plain text: a checklist item starts [ ] or [x], nested ones too; a table row is one line of tab-separated cells', (t) => {
  const para = (text?: string): RichTextNode => (text ? { type: 'paragraph', content: [{ type: 'text', text }] } : { type: 'paragraph' });
  const item = (text: string, checked: boolean, ...more: RichTextNode[]): RichTextNode => ({ type: 'taskItem', attrs: { checked }, content: [para(text), ...more] });
  const cell = (type: string, ...content: RichTextNode[]): RichTextNode => ({ type, attrs: { colspan: 1, rowspan: 1 }, content });
  const doc: RichTextNode = {
    type: 'doc',
    content: [
      para('Before'),
      { type: 'taskList', content: [item('Book the room', true), item('Send the agenda', false, { type: 'taskList', content: [item('Print copies', true)] })] },
      {
        type: 'table',
        content: [
          { type: 'tableRow', content: [cell('tableHeader', para('Item')), cell('tableHeader', para('Owner')), cell('tableHeader', para('Due'))] },
          { type: 'tableRow', content: [cell('tableCell', para('Room')), cell('tableCell', para(), para('Ann')), cell('tableCell', para())] },
          { type: 'tableRow', content: [cell('tableCell', para()), cell('tableCell', para()), cell('tableCell', para())] },
          { type: 'tableRow', content: [cell('tableCell', para()), cell('tableCell', { type: 'paragraph', content: [{ type: 'mention', attrs: { id: 'x', label: 'Bob' } }, { type: 'text', text: ' and' }] }, para('Ann')), cell('tableCell', para('Fri'))] },
        ],
      },
      para('After'),
    ],
  };
  t.is(richTextPlain(doc), 'Before\n[x] Book the room\n[ ] Send the agenda\n[x] Print copies\nItem\tOwner\tDue\nRoom\tAnn\n\t@Bob and Ann\tFri\nAfter');
  // Through a Yjs fragment and back, the same.
  const ydoc = new Y.Doc();
  writeRichText(ydoc.getXmlFragment('default'), doc);
  t.is(richTextPlain(richTextFromFragment(ydoc.getXmlFragment('default'))), richTextPlain(doc));
  t.deepEqual(richTextFromFragment(ydoc.getXmlFragment('default')).content?.[1], doc.content?.[1]);
});

test('an empty text block is written with an empty Y.XmlText, which the JSON does not show', (t) => {
  const doc = new Y.Doc();
  writeRichText(doc.getXmlFragment('default'), { type: 'doc', content: [{ type: 'paragraph' }] });
  const paragraph = doc.getXmlFragment('default').get(0) as Y.XmlElement;
  t.is(paragraph.length, 1);
  t.true(paragraph.get(0) instanceof Y.XmlText);
  t.deepEqual(richTextFromFragment(doc.getXmlFragment('default')), { type: 'doc', content: [{ type: 'paragraph' }] });
});

test('mentions: each member once, by lower-cased id (an MRN read as its id), with the text of the block holding the first mention', (t) => {
  const ada = '0b5c1e3a-1111-4aaa-8bbb-000000000001';
  const bo = '0b5c1e3a-2222-4aaa-8bbb-000000000002';
  const mention = (id: unknown, label: string): RichTextNode => ({ type: 'mention', attrs: { id, label } });
  const doc: RichTextNode = {
    type: 'doc',
    content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'Ask ' }, mention(ada.toUpperCase(), 'Ada'), { type: 'hardBreak' }, { type: 'text', text: 'today' }] },
      { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [mention(`mrn:account:member:${bo}`, 'Bo'), { type: 'text', text: ' and ' }, mention(ada, 'Ada')] }] }] },
      { type: 'paragraph', content: [mention('not-a-member', 'X'), mention(42, 'Y')] },
    ],
  };
  t.deepEqual([...richTextMentions(doc)], [[ada, 'Ask @Ada today'], [bo, '@Bo and @Ada']]);
  t.deepEqual([...richTextMentions(sample)], []);
  t.deepEqual([...richTextMentions(null)], []);
});

test('an MRN chip (record) survives a Yjs round trip and reads as its label, else its MRN, in the plain text', (t) => {
  const chips: RichTextNode = {
    type: 'doc',
    content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'See ' }, { type: 'record', attrs: { label: 'Leave policy', mrn: 'mrn:wiki:page:0b6f' } }, { type: 'text', text: ' and ' }, { type: 'record', attrs: { mrn: 'mrn:tasks:task:T-42' } }] },
    ],
  };
  const doc = new Y.Doc();
  writeRichText(doc.getXmlFragment('default'), chips);
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
  t.deepEqual(richTextFromFragment(other.getXmlFragment('default')), chips);
  t.is(richTextPlain(chips), 'See Leave policy and mrn:tasks:task:T-42');
  t.is(richTextBadRecord(chips), null);
});

test('a record whose mrn is not mrn:{app}:{resource}:{id} is named by richTextBadRecord', (t) => {
  const withMrn = (mrn: unknown): RichTextNode => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'record', attrs: { mrn: 'mrn:wiki:page:1' } }, { type: 'record', attrs: { mrn } }] }] });
  t.is(richTextBadRecord(withMrn('mrn:wiki:page:2')), null);
  t.is(richTextBadRecord(withMrn('mrn:wiki:page')), 'mrn:wiki:page');
  t.is(richTextBadRecord(withMrn('https://example.com')), 'https://example.com');
  t.is(richTextBadRecord(withMrn('mrn:Wiki:page:2')), 'mrn:Wiki:page:2');
  t.is(richTextBadRecord(withMrn(undefined)), '');
  t.true(RECORD_MRN.test('mrn:ext.acme.crm:deal:a-1_b.2'));
});
