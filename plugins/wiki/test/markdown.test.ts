import test from 'ava';
import { richTextFromMarkdown as fromMarkdown, richTextToHtml as toHtml, richTextToMarkdown as toMarkdown } from '@wpk/sdk';
import { plainText } from '../src/services/markdown.js';
import type { DocNode } from '../src/models/index.js';

const para = (text: string): DocNode => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const item = (text: string, checked: boolean, ...more: DocNode[]): DocNode => ({ type: 'taskItem', attrs: { checked }, content: [para(text), ...more] });
const cell = (type: string, text: string): DocNode => ({ type, attrs: { colspan: 1, rowspan: 1 }, content: [text ? para(text) : { type: 'paragraph' }] });

const checklist: DocNode = { type: 'taskList', content: [item('Book the room', true), item('Send the agenda', false, { type: 'taskList', content: [item('Print copies', true), item('Post them', false)] }), item('Lunch', false)] };
const grid: DocNode = {
  type: 'table',
  content: [
    { type: 'tableRow', content: [cell('tableHeader', 'Item'), cell('tableHeader', 'Owner | deputy'), cell('tableHeader', 'Due')] },
    { type: 'tableRow', content: [cell('tableCell', 'Room'), cell('tableCell', 'Ann'), cell('tableCell', '')] },
    { type: 'tableRow', content: [cell('tableCell', ''), cell('tableCell', 'Bob'), cell('tableCell', 'Friday')] },
  ],
};
const doc: DocNode = { type: 'doc', content: [para('Before'), checklist, grid, para('After')] };

const MARKDOWN = `Before

- [x] Book the room
- [ ] Send the agenda
  - [x] Print copies
  - [ ] Post them
- [ ] Lunch

| Item | Owner \\| deputy | Due |
| --- | --- | --- |
| Room | Ann | |
| | Bob | Friday |

After
`;

test('a checklist (nested) and a table are written as GFM Markdown and read back as the same nodes', (t) => {
  t.is(toMarkdown(doc), MARKDOWN);
  t.deepEqual(fromMarkdown(MARKDOWN), doc);
});

test('Markdown read: nested bullet and numbered lists, a table\'s short rows filled to the header\'s width, a bar line without a rule is text', (t) => {
  t.deepEqual(fromMarkdown('1. one\n   - a\n   - b\n2. two\n'), {
    type: 'doc',
    content: [{ type: 'orderedList', content: [{ type: 'listItem', content: [para('one'), { type: 'bulletList', content: [{ type: 'listItem', content: [para('a')] }, { type: 'listItem', content: [para('b')] }] }] }, { type: 'listItem', content: [para('two')] }] }],
  });
  t.is(toMarkdown(fromMarkdown('1. one\n   - a\n   - b\n2. two\n')), '1. one\n   - a\n   - b\n2. two\n');
  t.deepEqual(fromMarkdown('|a|b|\n|:-|-:|\n|1|\n'), { type: 'doc', content: [{ type: 'table', content: [{ type: 'tableRow', content: [cell('tableHeader', 'a'), cell('tableHeader', 'b')] }, { type: 'tableRow', content: [cell('tableCell', '1'), cell('tableCell', '')] }] }] });
  t.deepEqual(fromMarkdown('| not a table |\nsaid Ann\n'), { type: 'doc', content: [para('| not a table | said Ann')] });
  // A mixed list (not every item a task) stays a bullet list.
  t.deepEqual(fromMarkdown('- [x] done\n- plain\n'), { type: 'doc', content: [{ type: 'bulletList', content: [{ type: 'listItem', content: [para('[x] done')] }, { type: 'listItem', content: [para('plain')] }] }] });
});

test('HTML: a checklist shows each item ticked or not, nested; a table has its header row in thead with column headers', (t) => {
  t.is(
    toHtml(doc, (target) => target),
    [
      '<p>Before</p>',
      '<ul><li>☑ Book the room</li><li>☐ Send the agenda<ul><li>☑ Print copies</li><li>☐ Post them</li></ul></li><li>☐ Lunch</li></ul>',
      '<table><thead><tr><th scope="col">Item</th><th scope="col">Owner | deputy</th><th scope="col">Due</th></tr></thead><tbody><tr><td>Room</td><td>Ann</td><td></td></tr><tr><td></td><td>Bob</td><td>Friday</td></tr></tbody></table>',
      '<p>After</p>',
    ].join('\n'),
  );
  const spanned: DocNode = { type: 'doc', content: [{ type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableCell', attrs: { colspan: 2, rowspan: 1 }, content: [para('<b>wide</b>')] }] }] }] };
  t.is(toHtml(spanned, () => null), '<table><tbody><tr><td colspan="2">&lt;b&gt;wide&lt;/b&gt;</td></tr></tbody></table>');
  t.is(plainText(doc), 'Before Book the room Send the agenda Print copies Post them Lunch Item Owner | deputy Due Room Ann Bob Friday After');
});
