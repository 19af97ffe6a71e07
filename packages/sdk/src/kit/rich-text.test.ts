import test from 'ava';
import * as Y from 'yjs';
import { richTextFromFragment, richTextMentions, richTextPlain, richTextTypes, writeRichText, type RichTextNode } from './rich-text.js';

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
