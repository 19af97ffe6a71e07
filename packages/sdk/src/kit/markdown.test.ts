import test from 'ava';
import { escapeHtml, richTextFromMarkdown, richTextToHtml, richTextToMarkdown, safeHref } from './markdown.js';
import { richTextFromDocx, richTextFromHtml } from './html-import.js';
import { richTextToDocx } from './docx.js';
import { loadPeer } from './peer.js';
import type { RichTextNode } from './rich-text.js';

const text = (value: string, ...marks: string[]): RichTextNode => (marks.length ? { type: 'text', text: value, marks: marks.map((type) => ({ type })) } : { type: 'text', text: value });
const para = (...content: RichTextNode[]): RichTextNode => ({ type: 'paragraph', content });
const mention = (id: string, label?: string): RichTextNode => ({ type: 'mention', attrs: label === undefined ? { id } : { id, label } });

const MARKDOWN = [
  '# Plan',
  '',
  'Ship **today** and *calmly*, see `code` and [the site](https://example.com).',
  '',
  '- one',
  '- two',
  '',
  '1. first',
  '2. second',
  '',
  '- [x] done',
  '- [ ] open',
  '',
  '> quoted',
  '',
  '```ts',
  'const a = 1;',
  '```',
  '',
  '---',
  '',
].join('\n');

test('Markdown reads as the document and writes back as the same Markdown', (t) => {
  const doc = richTextFromMarkdown(MARKDOWN);
  t.deepEqual(doc.content!.map((node) => node.type), ['heading', 'paragraph', 'bulletList', 'orderedList', 'taskList', 'blockquote', 'codeBlock', 'horizontalRule']);
  t.deepEqual(doc.content![0], { type: 'heading', attrs: { level: 1 }, content: [text('Plan')] });
  t.deepEqual(doc.content![1], {
    type: 'paragraph',
    content: [text('Ship '), text('today', 'bold'), text(' and '), text('calmly', 'italic'), text(', see '), text('code', 'code'), text(' and '), { type: 'text', text: 'the site', marks: [{ type: 'link', attrs: { href: 'https://example.com' } }] }, text('.')],
  });
  t.deepEqual(doc.content![4], { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [para(text('done'))] }, { type: 'taskItem', attrs: { checked: false }, content: [para(text('open'))] }] });
  t.deepEqual(doc.content![6], { type: 'codeBlock', attrs: { language: 'ts' }, content: [text('const a = 1;')] });
  t.is(richTextToMarkdown(doc), MARKDOWN);
});

test('Markdown: lines of one paragraph join, CRLF reads as LF, nothing is an empty document', (t) => {
  t.deepEqual(richTextFromMarkdown('one\r\ntwo\r\n\r\nthree'), { type: 'doc', content: [para(text('one two')), para(text('three'))] });
  t.deepEqual(richTextFromMarkdown(''), { type: 'doc', content: [] });
  t.is(richTextToMarkdown({ type: 'doc', content: [] }), '');
  t.is(richTextToMarkdown({ type: 'doc' }), '');
});

test('a mention writes as @Label in Markdown (its id without a label) and Markdown never reads one back', (t) => {
  const id = '0b5c3a52-3a1f-4a7e-9a57-0a7bb2c1f001';
  const doc: RichTextNode = { type: 'doc', content: [para(text('Ask '), mention(id, 'Ada Lovelace'), text(' or '), mention(id)), { type: 'bulletList', content: [{ type: 'listItem', content: [para(mention(id, 'Ada'))] }] }] };
  const markdown = richTextToMarkdown(doc);
  t.is(markdown, `Ask @Ada Lovelace or @${id}\n\n- @Ada\n`);
  const back = richTextFromMarkdown(markdown);
  t.deepEqual(back.content![0], para(text(`Ask @Ada Lovelace or @${id}`)));
  t.false(JSON.stringify(back).includes('"mention"'));
});

test('a mention is the editor\'s span in HTML, escaped', (t) => {
  const doc: RichTextNode = { type: 'doc', content: [para(text('Hi '), mention('m-1', 'Ada <3'), text('!'))] };
  t.is(richTextToHtml(doc), '<p>Hi <span data-type="mention" data-id="m-1">@Ada &lt;3</span>!</p>');
});

test('HTML: blocks and marks, text escaped, links through href (null: the text only)', (t) => {
  const doc = richTextFromMarkdown('## A <b>\n\n**x** *y* `z` [ok](https://a.test/?q="1") [bad](javascript:void)\n\n- [x] t\n\n> q\n\n```\n<i>\n```\n\n---');
  t.is(
    richTextToHtml(doc),
    [
      '<h2>A &lt;b&gt;</h2>',
      '<p><strong>x</strong> <em>y</em> <code>z</code> <a href="https://a.test/?q=&quot;1&quot;">ok</a> bad</p>',
      '<ul><li>☑ t</li></ul>',
      '<blockquote><p>q</p></blockquote>',
      '<pre><code>&lt;i&gt;</code></pre>',
      '<hr>',
    ].join('\n'),
  );
  t.is(richTextToHtml(doc, (target) => (target.startsWith('https:') ? 'https://mapped.test/' : null)).split('\n')[1], '<p><strong>x</strong> <em>y</em> <code>z</code> <a href="https://mapped.test/">ok</a> bad</p>');
});

test('the editor\'s other nodes and marks: strike, underline, highlight, hard breaks, images and tables', (t) => {
  const doc: RichTextNode = {
    type: 'doc',
    content: [
      para(text('gone', 'strike'), text(' '), text('under', 'underline'), text(' '), text('lit', 'highlight'), { type: 'hardBreak' }, text('next')),
      { type: 'image', attrs: { src: 'https://img.test/a.png', alt: 'A chart' } },
      {
        type: 'table',
        content: [
          { type: 'tableRow', content: [{ type: 'tableHeader', content: [para(text('Name'))] }, { type: 'tableHeader', content: [para(text('Note'))] }] },
          { type: 'tableRow', content: [{ type: 'tableCell', content: [para(text('a|b'))] }, { type: 'tableCell', content: [para(text('x', 'bold')), para(text('y'))] }] },
        ],
      },
    ],
  };
  t.is(richTextToMarkdown(doc), '~~gone~~ under lit  \nnext\n\n![A chart](https://img.test/a.png)\n\n| Name | Note |\n| --- | --- |\n| a\\|b | **x**<br>y |\n');
  t.is(
    richTextToHtml(doc),
    '<p><s>gone</s> <u>under</u> <mark>lit</mark><br>next</p>\n<p><img src="https://img.test/a.png" alt="A chart"></p>\n<table><thead><tr><th scope="col">Name</th><th scope="col">Note</th></tr></thead><tbody><tr><td>a|b</td><td><p><strong>x</strong></p><p>y</p></td></tr></tbody></table>',
  );
  t.is(richTextToHtml({ type: 'doc', content: [{ type: 'image', attrs: { src: 'javascript:x', alt: 'no' } }] }), '<p>no</p>');
  // Read back: the table's cells (attrs as the editor makes them), a cell's <br> parts its paragraphs.
  const cell = (type: string, ...content: RichTextNode[]): RichTextNode => ({ type, attrs: { colspan: 1, rowspan: 1 }, content });
  t.deepEqual(richTextFromMarkdown(richTextToMarkdown(doc)).content![2], {
    type: 'table',
    content: [
      { type: 'tableRow', content: [cell('tableHeader', para(text('Name'))), cell('tableHeader', para(text('Note')))] },
      { type: 'tableRow', content: [cell('tableCell', para(text('a|b'))), cell('tableCell', para(text('x', 'bold')), para(text('y')))] },
    ],
  });
});

test('the editor\'s checklists (nested) and tables: Markdown both ways, HTML with ticks and a header row', (t) => {
  const item = (value: string, checked: boolean, ...more: RichTextNode[]): RichTextNode => ({ type: 'taskItem', attrs: { checked }, content: [para(text(value)), ...more] });
  const cell = (type: string, value: string): RichTextNode => ({ type, attrs: { colspan: 1, rowspan: 1 }, content: [value ? para(text(value)) : { type: 'paragraph' }] });
  const doc: RichTextNode = {
    type: 'doc',
    content: [
      { type: 'taskList', content: [item('Draft', true), item('Review', false, { type: 'taskList', content: [item('Ann', true), item('Bob', false)] })] },
      { type: 'table', content: [{ type: 'tableRow', content: [cell('tableHeader', 'Who'), cell('tableHeader', 'When')] }, { type: 'tableRow', content: [cell('tableCell', 'Ann'), cell('tableCell', '')] }] },
    ],
  };
  const markdown = '- [x] Draft\n- [ ] Review\n  - [x] Ann\n  - [ ] Bob\n\n| Who | When |\n| --- | --- |\n| Ann | |\n';
  t.is(richTextToMarkdown(doc), markdown);
  t.deepEqual(richTextFromMarkdown(markdown), doc);
  t.is(
    richTextToHtml(doc),
    '<ul><li>☑ Draft</li><li>☐ Review<ul><li>☑ Ann</li><li>☐ Bob</li></ul></li></ul>\n<table><thead><tr><th scope="col">Who</th><th scope="col">When</th></tr></thead><tbody><tr><td>Ann</td><td></td></tr></tbody></table>',
  );
  // Not every item a task: a bullet list; a bar line without a rule under it: text; spans kept in HTML, text escaped.
  t.deepEqual(richTextFromMarkdown('- [ ] open\n- plain').content![0]!.type, 'bulletList');
  t.deepEqual(richTextFromMarkdown('| a |\nb').content, [para(text('| a | b'))]);
  const spanned: RichTextNode = { type: 'doc', content: [{ type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableCell', attrs: { colspan: 2, rowspan: 3 }, content: [para(text('<b>'))] }] }] }] };
  t.is(richTextToHtml(spanned), '<table><tbody><tr><td colspan="2" rowspan="3">&lt;b&gt;</td></tr></tbody></table>');
});

test('safeHref keeps web, mail, anchors and paths; refuses other schemes', (t) => {
  t.deepEqual(['https://a.test', 'HTTP://a', 'mailto:a@b.test', '#top', '/wiki/x', 'page.md'].map(safeHref), ['https://a.test', 'HTTP://a', 'mailto:a@b.test', '#top', '/wiki/x', 'page.md']);
  t.deepEqual(['javascript:alert(1)', 'data:text/html,x', '//evil.test', ''].map(safeHref), [null, null, null, null]);
  t.is(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});

test('HTML in: only the editor\'s node and mark types; scripts, unsafe links and fetched pictures never come through; whitespace collapsed; mixed checkbox lists split', async (t) => {
  const html = [
    '<html><head><title>T</title><style>p{}</style></head><body>',
    '<script>alert(1)</script>',
    '<h2>  A <b>bold</b>\n title </h2>',
    '<div><section><p>Kept <span>inside <i>nested</i></span> <a href="javascript:alert(1)">bad</a> <a href="/wiki/x">path</a></p></section></div>',
    'loose <u>text</u><br>after',
    '<p><img src="https://tracker.example/a.png" alt="remote"><img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"></p>',
    '<ul><li>plain</li><li><input type="checkbox" checked> ticked</li><li>☐ open</li></ul>',
    '<pre>a &lt; b\n  c<br>d</pre>',
    '<table><tr><th colspan="2">H</th></tr><tr><td>1</td><td><p>x</p><p>y</p></td></tr></table>',
    '<blockquote>q <strong><em>both</em></strong></blockquote><hr><iframe src="x"></iframe>',
    '</body></html>',
  ].join('');
  const cellOf = (type: string, colspan: number, ...content: RichTextNode[]): RichTextNode => ({ type, attrs: { colspan, rowspan: 1 }, content });
  t.deepEqual(await richTextFromHtml(html), {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 2 }, content: [text('A '), text('bold', 'bold'), text(' title')] },
      para(text('Kept inside '), text('nested', 'italic'), text(' bad '), { type: 'text', text: 'path', marks: [{ type: 'link', attrs: { href: '/wiki/x' } }] }),
      para(text('loose '), text('text', 'underline'), { type: 'hardBreak' }, text('after')),
      para(text('remote')),
      { type: 'image', attrs: { src: 'data:image/png;base64,iVBORw0KGgo=', alt: 'inline' } },
      { type: 'bulletList', content: [{ type: 'listItem', content: [para(text('plain'))] }] },
      { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [para(text('ticked'))] }, { type: 'taskItem', attrs: { checked: false }, content: [para(text('open'))] }] },
      { type: 'codeBlock', attrs: { language: null }, content: [text('a < b\n  c\nd')] },
      { type: 'table', content: [{ type: 'tableRow', content: [cellOf('tableHeader', 2, para(text('H')))] }, { type: 'tableRow', content: [cellOf('tableCell', 1, para(text('1'))), cellOf('tableCell', 1, para(text('x')), para(text('y')))] }] },
      { type: 'blockquote', content: [para(text('q '), { type: 'text', text: 'both', marks: [{ type: 'bold' }, { type: 'italic' }] })] },
      { type: 'horizontalRule' },
    ],
  });
  t.deepEqual(await richTextFromHtml(''), { type: 'doc', content: [] });
});

test('a converter whose optional package the app did not install says which package to add', async (t) => {
  const missing = 'wpk-no-such-package';
  const error = await t.throwsAsync(loadPeer(missing, 'richTextToDocx', () => import(missing)));
  t.is(error?.message, `richTextToDocx needs the package ${missing}: add it to the app's dependencies (npm install ${missing})`);
  t.is(typeof (await loadPeer('docx', 'richTextToDocx', () => import('docx'))).Packer.toBuffer, 'function');
});

test('an MRN chip writes as [Label](mrn:…), or <mrn:…> without a label, and reads back as the same record node', (t) => {
  const chip = (mrn: string, label?: string): RichTextNode => ({ type: 'record', attrs: label === undefined ? { mrn } : { label, mrn } });
  const doc: RichTextNode = { type: 'doc', content: [para(text('See '), chip('mrn:wiki:page:0b6f', 'Leave policy'), text(', '), chip('mrn:tasks:task:T-42'), text('.')), { type: 'bulletList', content: [{ type: 'listItem', content: [para(chip('mrn:contacts:company:c1', 'Initrode'))] }] }] };
  const markdown = richTextToMarkdown(doc);
  t.is(markdown, 'See [Leave policy](mrn:wiki:page:0b6f), <mrn:tasks:task:T-42>.\n\n- [Initrode](mrn:contacts:company:c1)\n');
  t.deepEqual(richTextFromMarkdown(markdown), doc);
  // Inside bold it stays a chip; a link or an autolink to something that is not an MRN stays text.
  t.deepEqual(richTextFromMarkdown('**a [B](mrn:wiki:page:1)** [x](mrn:bad) <mrn:nope>').content![0], para(text('a ', 'bold'), chip('mrn:wiki:page:1', 'B'), text(' '), { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'mrn:bad' } }] }, text(' <mrn:nope>')));
});

test('an MRN chip is a span with its label in HTML (never a link), and HTML and Word documents read it back', async (t) => {
  const doc: RichTextNode = { type: 'doc', content: [para(text('See '), { type: 'record', attrs: { label: 'Leave <policy>', mrn: 'mrn:wiki:page:0b6f' } }, text(' and '), { type: 'record', attrs: { mrn: 'mrn:tasks:task:T-42' } })] };
  const html = richTextToHtml(doc);
  t.is(html, '<p>See <span data-type="record" data-mrn="mrn:wiki:page:0b6f">Leave &lt;policy&gt;</span> and <span data-type="record" data-mrn="mrn:tasks:task:T-42">mrn:tasks:task:T-42</span></p>');
  t.deepEqual(await richTextFromHtml(html), doc);
  t.deepEqual((await richTextFromHtml('<p><a href="mrn:wiki:page:9">Nine</a> <span data-type="record" data-mrn="javascript:x">y</span></p>')).content![0], para({ type: 'record', attrs: { label: 'Nine', mrn: 'mrn:wiki:page:9' } }, text(' y')));
  const docx = await richTextToDocx(doc);
  t.deepEqual((await richTextFromDocx(docx)).content, [para(text('See Leave <policy> and mrn:tasks:task:T-42'))]);
});
