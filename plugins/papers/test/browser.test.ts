/**
 * Papers in Chromium, through the real routes and the live socket: two members open one paper in
 * two pages, each sees the other here, and both type into it at once (in two paragraphs, then the
 * first characters of one empty paragraph, then those of a paragraph one of them just made with
 * Enter); the two editors and the server's JSON snapshot
 * converge with no character lost or doubled. At 1280 px and at 375 px, axe-clean (no
 * serious or critical violation) in the shell and in the frame, no Content-Security-Policy
 * violation, nothing wider than the window. The screenshots are the ones docs/apps/papers.md shows.
 * A Markdown file imported from the list (a nested checklist, a table) opens as a paper with the
 * editor's checklist and table, and the paper's Export menu downloads it as Markdown, HTML and Word;
 * an image chosen with the Image button (its alt text asked) is uploaded, inserted and shown.
 * Beside the editor, a comment thread started on a selection is seen live by the other member, who
 * replies and resolves it; it is reopened, and Show selects its range again; a comment's link
 * (`?comment=`) opens the paper on that thread, an unknown one says so.
 * A paper made from a template in the "New from template" dialog (a required field left empty is
 * the API's 400, shown; then every field filled), shared with a department in the Share dialog, and
 * an anonymous link made there opened in a fresh browser without signing in (the front-end's
 * read-only page shows the text); Request signatures sends it to a person by name and e-mail.
 * Suggesting: a member who may only suggest types on a fork (shown inserted and struck through,
 * never sent live), submits it; the owner accepts it from the Suggestions panel (both pages show
 * it) and rejects a second one (the text stays).
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { appFrame, browseWorld, checkPage, collabEditorText, dismissToasts, saveScreenshot, untilConverged, type WorldBrowser } from '@wpk/testing/browser';
import type { Frame } from 'playwright-core';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const KEYS = ['papers.papers.read', 'papers.papers.create', 'papers.papers.edit', 'papers.comments.create'];

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;
let paperId: string;

test.before(async () => {
  // Workers is loaded (not installed) so that its core.workers.* events, which feed department shares, have their emitter.
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), apps: [fileURLToPath(new URL('../../workers', import.meta.url))], subdomain: 'acme', listen: true, firstParty: ['papers', 'workers'] }), { link: 'Papers', slug: 'papers', ready: 'papers-list' });
  ann = await web.world.member(KEYS, { name: 'Ann Writer' });
  bob = await web.world.member(KEYS, { name: 'Bob Editor' });
  paperId = ok(await ann.post('/papers', { title: 'Minutes', content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Weekly sync' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'Budget:' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'Hiring:' }] }, { type: 'paragraph' }] } })).id;
  ok(await ann.put(`/papers/${paperId}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'edit' }] }));
});

test.after.always(() => web?.close());

/** Opens the paper from the list and waits for its editor. */
async function openPaper(frame: Frame): Promise<void> {
  await frame.getByRole('link', { name: 'Minutes' }).click();
  await frame.getByRole('textbox', { name: 'Minutes' }).waitFor();
  await frame.getByText('Saved').waitFor();
}

/** The editor's text without the other members' carets (their name labels). */
const editorText = (frame: Frame) => collabEditorText(frame, 'Minutes');

test.serial('at 1280 px: two members type into one paper at once and converge with no character lost', async (t) => {
  const first = await web.openApp(1280, { email: ann.email });
  const second = await web.openApp(1280, { email: bob.email });
  await openPaper(first.frame);
  await openPaper(second.frame);
  // Who is here: each page shows the other member.
  await first.frame.getByLabel('Who is here').getByText('Bob Editor').waitFor();
  await second.frame.getByLabel('Who is here').getByText('Ann Writer').waitFor();

  const annText = ' the budget is approved';
  const bobText = ' starts in May, said Bob';
  const annEditor = first.frame.getByRole('textbox', { name: 'Minutes' });
  const bobEditor = second.frame.getByRole('textbox', { name: 'Minutes' });
  await annEditor.locator('p').nth(0).click();
  await annEditor.press('End');
  await bobEditor.locator('p').nth(1).click();
  await bobEditor.press('End');
  await Promise.all([annEditor.pressSequentially(annText, { delay: 15 }), bobEditor.pressSequentially(bobText, { delay: 15 })]);

  const expected = (text: string) => text === `Weekly sync\nBudget:${annText}\nHiring:${bobText}\n`;
  const texts = () => Promise.all([editorText(first.frame), editorText(second.frame)]);
  let [a, b] = await untilConverged(texts, expected);
  t.is(a, b, 'both editors hold the same text');
  t.true(expected(a), a);
  await first.frame.getByText('Saved').waitFor();
  await second.frame.getByText('Saved').waitFor();
  const stored = ok(await ann.get(`/papers/${paperId}`)).text as string;
  t.is(stored, `Weekly sync\nBudget:${annText}\nHiring:${bobText}`, 'every character reached the server, once');

  // Both type the first characters of one empty paragraph at once.
  await annEditor.locator('p').nth(2).click();
  await bobEditor.locator('p').nth(2).click();
  await Promise.all([annEditor.pressSequentially('aaaaaaaaaaaa', { delay: 15 }), bobEditor.pressSequentially('bbbbbbbbbbbb', { delay: 15 })]);
  const both = (text: string) => ['aaaaaaaaaaaabbbbbbbbbbbb', 'bbbbbbbbbbbbaaaaaaaaaaaa'].includes(text.split('\n')[3] ?? '');
  [a, b] = await untilConverged(texts, both);
  t.is(a, b);
  t.true(both(a), JSON.stringify(a));
  await first.frame.getByText('Saved').waitFor();
  await second.frame.getByText('Saved').waitFor();
  t.is(ok(await ann.get(`/papers/${paperId}`)).text, a, 'the server holds the same text');

  // A mention typed after @: the list offers Bob, Enter inserts the mention node, both replicas and the server hold it.
  await annEditor.locator('p').nth(2).click();
  await annEditor.press('End');
  await annEditor.pressSequentially(' ask @bo');
  const list = first.frame.getByRole('listbox', { name: 'Members to mention' });
  await list.waitFor();
  t.deepEqual(await list.getByRole('option').allTextContents(), ['Bob Editor']);
  await annEditor.press('Enter');
  await bobEditor.locator(`span[data-type="mention"][data-id="${bob.id}"]`, { hasText: '@Bob Editor' }).waitFor();
  await first.frame.getByText('Saved').waitFor();
  const mentions: unknown[] = [];
  const walk = (node: { type?: string; attrs?: unknown; content?: unknown[] }) => {
    if (node.type === 'mention') mentions.push(node.attrs);
    for (const child of node.content ?? []) walk(child as typeof node);
  };
  for (let attempt = 0; attempt < 50 && mentions.length === 0; attempt += 1) {
    walk(ok(await ann.get(`/papers/${paperId}`)).content);
    if (mentions.length === 0) await first.page.waitForTimeout(100);
  }
  t.deepEqual(mentions, [{ id: bob.id, label: 'Bob Editor' }]);

  // Ann types a checklist (one item nested under another) and ticks an item from the keyboard; Bob sees it ticked.
  await annEditor.press('End');
  await annEditor.press('Enter');
  await first.frame.getByRole('button', { name: 'Checklist' }).click();
  await annEditor.pressSequentially('Book the room', { delay: 10 });
  await annEditor.press('Enter');
  await annEditor.pressSequentially('Send the agenda', { delay: 10 });
  await annEditor.press('Enter');
  await annEditor.press('Tab');
  await annEditor.pressSequentially('Print copies', { delay: 10 });
  await annEditor.getByRole('checkbox', { name: 'Done: Book the room' }).focus();
  await first.page.keyboard.press('Space');
  t.true(await annEditor.getByRole('checkbox', { name: 'Done: Book the room' }).isChecked());
  const ticked = bobEditor.getByRole('checkbox', { name: 'Done: Book the room' });
  await ticked.waitFor();
  for (let attempt = 0; attempt < 50 && !(await ticked.isChecked()); attempt += 1) await second.page.waitForTimeout(100);
  t.true(await ticked.isChecked(), 'Bob sees the item ticked');
  t.false(await bobEditor.getByRole('checkbox', { name: 'Done: Print copies' }).isChecked());

  // Bob puts a table after the budget line, fills its header and a row, adds a row and removes a column; Ann sees the same table.
  await bobEditor.locator('p').nth(0).click();
  await bobEditor.press('End');
  await bobEditor.press('Enter');
  await second.frame.getByRole('button', { name: 'Table' }).click();
  for (const [at, text] of ['Item', 'Owner', 'Due', 'Room', 'Ann'].entries()) {
    if (at > 0) await bobEditor.press('Tab');
    await bobEditor.pressSequentially(text, { delay: 10 });
  }
  const tableBar = second.frame.getByRole('group', { name: 'Table' });
  await tableBar.getByRole('button', { name: 'Add row' }).click();
  await tableBar.getByRole('button', { name: 'Remove column' }).click();
  const cells = (frame: Frame) =>
    frame
      .getByRole('textbox', { name: 'Minutes' })
      .locator('table tr')
      .evaluateAll((rows) =>
        rows.map((row) =>
          Array.from(row.children, (cell) => {
            const copy = cell.cloneNode(true) as HTMLElement;
            copy.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
            return `${cell.tagName}:${copy.textContent}`;
          }),
        ),
      );
  const table = [['TH:Item', 'TH:Due'], ['TD:Room', 'TD:'], ['TD:', 'TD:'], ['TD:', 'TD:']];
  let seen: string[][] = [];
  for (let attempt = 0; attempt < 50; attempt += 1) {
    seen = await cells(first.frame);
    if (JSON.stringify(seen) === JSON.stringify(table)) break;
    await first.page.waitForTimeout(100);
  }
  t.deepEqual(await cells(second.frame), table);
  t.deepEqual(seen, table, 'Ann sees Bob\'s table');

  // Mod+Enter ticks the item at the cursor.
  await annEditor.getByText('Print copies', { exact: true }).click();
  await annEditor.press('ControlOrMeta+Enter');
  const printed = bobEditor.getByRole('checkbox', { name: 'Done: Print copies' });
  for (let attempt = 0; attempt < 50 && !(await printed.isChecked()); attempt += 1) await second.page.waitForTimeout(100);
  t.true(await printed.isChecked(), 'Bob sees the nested item ticked');

  // The server's snapshot holds both, as the editor's node types.
  await first.frame.getByText('Saved').waitFor();
  await second.frame.getByText('Saved').waitFor();
  type Node = { type: string; attrs?: Record<string, unknown>; content?: Node[]; text?: string };
  const para = (text: string): Node => ({ type: 'paragraph', content: [{ type: 'text', text }] });
  const item = (text: string, checked: boolean, ...more: Node[]): Node => ({ type: 'taskItem', attrs: { checked }, content: [para(text), ...more] });
  const cell = (type: string, text: string): Node => ({ type, attrs: { colspan: 1, rowspan: 1 }, content: [text ? para(text) : { type: 'paragraph' }] });
  const checklist = { type: 'taskList', content: [item('Book the room', true), item('Send the agenda', false, { type: 'taskList', content: [item('Print copies', true)] })] };
  const grid = { type: 'table', content: table.map((row) => ({ type: 'tableRow', content: row.map((text) => cell(text.startsWith('TH') ? 'tableHeader' : 'tableCell', text.slice(3))) })) };
  let snapshot: { content: Node; text: string } = { content: { type: 'doc' }, text: '' };
  for (let attempt = 0; attempt < 50; attempt += 1) {
    snapshot = ok(await ann.get(`/papers/${paperId}`));
    if (JSON.stringify(snapshot.content.content?.[5]) === JSON.stringify(checklist)) break;
    await first.page.waitForTimeout(100);
  }
  t.deepEqual(snapshot.content.content?.map((node) => node.type), ['heading', 'paragraph', 'table', 'paragraph', 'paragraph', 'taskList', 'paragraph']);
  t.deepEqual(snapshot.content.content?.[2], grid);
  t.deepEqual(snapshot.content.content?.[5], checklist);
  t.true(snapshot.text.endsWith('\n[x] Book the room\n[ ] Send the agenda\n[x] Print copies'), snapshot.text);

  // Comment threads beside the editor: Bob starts one on the budget line; Ann sees it live, replies and resolves it; Bob sees both and reopens it; Show selects its range.
  const threadsOf = (frame: Frame) => frame.getByRole('list', { name: 'Comment threads' });
  const budget = `Budget:${annText}`;
  await bobEditor.locator('p').nth(0).click({ clickCount: 3 });
  await second.frame.getByRole('button', { name: 'Comment on the selection' }).click();
  await second.frame.getByRole('textbox', { name: 'Comment', exact: true }).fill('Which week?');
  await second.frame.getByRole('button', { name: 'Start thread' }).click();
  await threadsOf(second.frame).getByText('Which week?').waitFor();
  const [thread] = ok(await bob.get(`/papers/${paperId}/comments`)) as Array<{ id: string; quote: string; body: string; anchor: unknown; author_id: string; resolved_at: string | null }>;
  t.like(thread, { quote: budget, body: 'Which week?', author_id: bob.id, resolved_at: null });
  t.truthy(thread!.anchor);
  await threadsOf(first.frame).getByText('Which week?').waitFor();
  await threadsOf(first.frame).getByRole('button', { name: 'Reply' }).click();
  await first.frame.getByRole('textbox', { name: 'Reply', exact: true }).fill('The one after launch');
  await first.frame.getByRole('button', { name: 'Send reply' }).click();
  await threadsOf(second.frame).getByText('The one after launch').waitFor();
  await threadsOf(first.frame).getByRole('button', { name: 'Resolve' }).click();
  await threadsOf(second.frame).getByText('Resolved').waitFor();
  const threadOf = async () => ok(await ann.get(`/papers/${paperId}/comments`)) as Array<{ id: string; thread_id: string; body: string; resolved_at: string | null; resolved_by: string | null }>;
  const resolved = await threadOf();
  t.deepEqual(resolved.map((row) => [row.thread_id, row.body]), [[thread!.id, 'Which week?'], [thread!.id, 'The one after launch']]);
  t.like(resolved[0], { resolved_by: ann.id });
  await threadsOf(second.frame).getByRole('button', { name: 'Reopen' }).click();
  await threadsOf(first.frame).getByRole('button', { name: 'Resolve' }).waitFor();
  t.is(await threadsOf(first.frame).getByText('Resolved').count(), 0, 'Ann sees it open again');
  t.like((await threadOf())[0], { resolved_at: null, resolved_by: null });
  await threadsOf(first.frame).getByRole('button', { name: 'Show' }).click();
  type Pm = { editor: { state: { doc: { textBetween(from: number, to: number): string }; selection: { from: number; to: number } } } };
  const selected = await first.frame.locator('papers-paper').evaluate((element) => {
    const { state } = (element.shadowRoot!.querySelector('wpk-collab-editor') as unknown as Pm).editor;
    return state.doc.textBetween(state.selection.from, state.selection.to);
  });
  t.is(selected, budget, 'Show selects the range the thread is on');

  await checkPage(t, first.page, first.frame, 'a paper open in the editor');
  await dismissToasts(first.page);
  await saveScreenshot(first.page, `${IMAGES}papers-editor-1280.png`);

  // Ann makes a new paragraph with Enter and both type its first characters at once (issue 43:
  // each replica made its own text in the new paragraph and one character came out twice).
  const lastParagraph = (editor: typeof annEditor) => editor.locator(':scope > p').last();
  const before = await bobEditor.locator(':scope > p').count();
  await lastParagraph(annEditor).click();
  await annEditor.press('End');
  await annEditor.press('Enter');
  await bobEditor.locator(':scope > p').nth(before).waitFor();
  await lastParagraph(bobEditor).click();
  await Promise.all([annEditor.pressSequentially('cccccccccccc', { delay: 15 }), bobEditor.pressSequentially('dddddddddddd', { delay: 15 })]);
  const fresh = (text: string) => ['ccccccccccccdddddddddddd', 'ddddddddddddcccccccccccc'].includes(text.split('\n').at(-1) ?? '');
  [a, b] = await untilConverged(texts, fresh);
  t.is(b, a, 'both editors hold the same text');
  t.true(fresh(a), JSON.stringify(a.split('\n').at(-1)));
  await first.frame.getByText('Saved').waitFor();
  await second.frame.getByText('Saved').waitFor();
  t.is((ok(await ann.get(`/papers/${paperId}`)).text as string).split('\n').at(-1), a.split('\n').at(-1), 'the server holds the same line');

  // A comment mention's link (`/papers/{id}?comment={comment_id}`, here the reply's) opens the paper with that thread marked and its range selected; an unknown comment is a short notice.
  const reply = (await threadOf()).find((row) => row.body === 'The one after launch')!;
  await first.page.goto(`${web.origin}/app/papers/papers/${paperId}?comment=${reply.id}`);
  const linked = await appFrame(first.page, 'papers-paper');
  const current = linked.locator('article[aria-current="true"]');
  await current.getByText('The one after launch').waitFor();
  t.is(await current.getAttribute('aria-label'), `Thread on ${budget}`);
  let linkedSelection = '';
  for (let attempt = 0; attempt < 50 && linkedSelection !== budget; attempt += 1) {
    linkedSelection = await linked.locator('papers-paper').evaluate((element) => {
      const editor = (element.shadowRoot!.querySelector('wpk-collab-editor') as unknown as Partial<Pm>).editor;
      return editor ? editor.state.doc.textBetween(editor.state.selection.from, editor.state.selection.to) : '';
    });
    if (linkedSelection !== budget) await first.page.waitForTimeout(100);
  }
  t.is(linkedSelection, budget, 'the linked thread\'s range is selected');
  await checkPage(t, first.page, linked, 'a paper opened by a comment\'s link');
  await first.page.goto(`${web.origin}/app/papers/papers/${paperId}?comment=${randomUUID()}`);
  const missing = await appFrame(first.page, 'papers-paper');
  await missing.getByRole('status').filter({ hasText: 'The comment this link points to is not here: it was deleted, or the link is wrong.' }).waitFor();
  t.is(await missing.locator('article[aria-current="true"]').count(), 0);
  await first.page.context().close();
  await second.page.context().close();
});

test.serial('at 375 px: the list and a paper read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: bob.email });
  await frame.getByRole('link', { name: 'Minutes' }).waitFor();
  await checkPage(t, page, frame, 'the list at 375 px');
  await saveScreenshot(page, `${IMAGES}papers-list-375.png`);
  await openPaper(frame);
  await checkPage(t, page, frame, 'a paper at 375 px');
  await page.context().close();
});

test.serial('at 1280 px: a Markdown file imported from the list opens as a paper (its checklist and table as the editor\'s); Export downloads it as Markdown, HTML and Word', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('link', { name: 'Minutes' }).waitFor();
  const markdown = '# Retro\n\nWhat went **well**, ask @Bob.\n\n- [x] ship\n  - [ ] tell users\n\n| Who | What |\n| --- | --- |\n| Ann | notes |\n';
  await frame.getByLabel('Import Markdown').setInputFiles({ name: 'Retro notes.md', mimeType: 'text/markdown', buffer: Buffer.from(markdown) });
  const editor = frame.getByRole('textbox', { name: 'Retro notes' });
  await editor.waitFor();
  await editor.getByText('What went well, ask @Bob.').waitFor();
  t.true(await editor.locator('strong', { hasText: 'well' }).isVisible());
  t.true(await editor.getByRole('checkbox', { name: 'Done: ship' }).isChecked());
  t.false(await editor.getByRole('checkbox', { name: 'Done: tell users' }).isChecked());
  t.deepEqual(await editor.locator('table tr').evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => `${cell.tagName}:${cell.textContent}`))), [['TH:Who', 'TH:What'], ['TD:Ann', 'TD:notes']]);
  await frame.getByText('Saved').waitFor();
  const listed = ok(await ann.get('/papers?q=Retro')) as Array<{ id: string; title: string }>;
  t.deepEqual(listed.map((paper) => paper.title), ['Retro notes']);

  await frame.getByText('Export', { exact: true }).click();
  const [asMarkdown] = await Promise.all([page.waitForEvent('download'), frame.getByRole('button', { name: 'Markdown (.md)' }).click()]);
  t.is(asMarkdown.suggestedFilename(), 'Retro notes.md');
  t.is(await fs.promises.readFile((await asMarkdown.path())!, 'utf8'), markdown);
  await frame.getByText('Export', { exact: true }).click();
  const [asHtml] = await Promise.all([page.waitForEvent('download'), frame.getByRole('button', { name: 'HTML (.html)' }).click()]);
  t.is(asHtml.suggestedFilename(), 'Retro notes.html');
  const exported = await fs.promises.readFile((await asHtml.path())!, 'utf8');
  t.true(exported.includes('<h1>Retro</h1>\n<p>What went <strong>well</strong>, ask @Bob.</p>\n<ul><li>☑ ship<ul><li>☐ tell users</li></ul></li></ul>\n<table><thead><tr><th scope="col">Who</th><th scope="col">What</th></tr></thead><tbody><tr><td>Ann</td><td>notes</td></tr></tbody></table>'), exported);
  await frame.getByText('Export', { exact: true }).click();
  const [asWord] = await Promise.all([page.waitForEvent('download'), frame.getByRole('button', { name: 'Word (.docx)' }).click()]);
  t.is(asWord.suggestedFilename(), 'Retro notes.docx');
  t.is((await fs.promises.readFile((await asWord.path())!)).subarray(0, 2).toString(), 'PK', 'a Word document (a ZIP)');

  // An image: chosen by the Image button's file picker, its alt text asked, uploaded, inserted and shown (a blob: URL: the frame has no cookie).
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  await frame.getByLabel('Image file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  await frame.getByLabel('Describe dot.png for those who cannot see it').fill('A dot');
  await frame.getByRole('button', { name: 'Insert image' }).click();
  const image = editor.getByRole('img', { name: 'A dot' });
  await image.waitFor();
  const shown = await image.evaluate(
    (element) =>
      new Promise<string>((resolve) => {
        const img = element as HTMLImageElement;
        const started = Date.now();
        const look = () => (img.src.startsWith('blob:') && img.complete && img.naturalWidth === 1) || Date.now() - started > 5000 ? resolve(`${img.src.slice(0, 5)} ${img.naturalWidth}`) : setTimeout(look, 50);
        look();
      }),
  );
  t.is(shown, 'blob: 1', 'shown from the bytes read with the token');
  await frame.getByText('Saved').waitFor();
  const stored = (ok(await ann.get(`/papers/${listed[0]!.id}`)) as { content: { content: Array<{ type: string; attrs?: Record<string, unknown> }> } }).content.content.filter((node) => node.type === 'image');
  t.is(stored.length, 1);
  t.regex(String(stored[0]!.attrs!.src), new RegExp(`^/papers/${listed[0]!.id}/images/[0-9a-f-]{36}$`));
  t.is(stored[0]!.attrs!.alt, 'A dot');
  await checkPage(t, page, frame, 'a paper imported from Markdown, its Export menu');
  await page.context().close();
});

test.serial('at 1280 px: a paper from a template (its fields asked, the API\'s refusal shown), shared with a department, and an anonymous link opened without signing in', async (t) => {
  const engineering = randomUUID();
  await web.world.deliver('core.workers.department.created', { department_id: engineering, mrn: `mrn:workers:department:${engineering}`, name: 'Engineering', revision: 1 });
  const line = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
  ok(await ann.post('/papers', { title: 'Offer letter', template: true, content: { type: 'doc', content: [line('Dear {{client}},'), line('We start on {{start?}}.')] } }));
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('link', { name: 'Minutes' }).waitFor();

  await frame.getByRole('button', { name: 'New from template' }).click();
  const dialog = frame.getByRole('dialog', { name: 'New from template' });
  await dialog.waitFor();
  t.true(await dialog.getByRole('radio', { name: /Offer letter/ }).isChecked());
  await dialog.getByRole('button', { name: 'Create paper' }).click();
  t.is(await dialog.getByRole('alert').textContent(), 'merge.client: a value is required by the template', 'the API\'s words');
  await dialog.getByRole('textbox', { name: 'client (required)' }).fill('Acme Ltd');
  await dialog.getByRole('textbox', { name: 'start (optional)' }).fill('1 May');
  await checkPage(t, page, frame, 'the New from template dialog');
  await saveScreenshot(page, `${IMAGES}papers-template-1280.png`);
  await dialog.getByRole('button', { name: 'Create paper' }).click();
  const editor = frame.getByRole('textbox', { name: 'Offer letter' });
  await editor.waitFor();
  await editor.getByText('Dear Acme Ltd,').waitFor();
  await editor.getByText('We start on 1 May.').waitFor();
  const made = (ok(await ann.get('/papers?q=Offer')) as Array<{ id: string; title: string }>).find((paper) => paper.title === 'Offer letter')!;
  t.is(ok(await ann.get(`/papers/${made.id}`)).text, 'Dear Acme Ltd,\nWe start on 1 May.');

  // Share with a department (the app's copy of Workers' departments), then an anonymous link.
  await frame.getByRole('button', { name: 'Share', exact: true }).click();
  const share = frame.getByRole('dialog', { name: 'Share' });
  await share.waitFor();
  await share.getByLabel('Department').selectOption({ label: 'Engineering' });
  await share.getByLabel('Access').selectOption('view');
  await share.getByRole('button', { name: 'Share', exact: true }).click();
  await share.getByRole('list', { name: 'Shared with' }).getByText('Department Engineering: view').waitFor();
  t.deepEqual(ok(await ann.get(`/papers/${made.id}/shares`)).shares, [{ principal_type: 'department', principal_id: engineering, level: 'view' }]);
  await share.getByRole('button', { name: 'Create link' }).click();
  const url = share.getByRole('textbox', { name: 'Link to copy' });
  await url.waitFor();
  const address = await url.inputValue();
  t.regex(address, /^https?:\/\/[^/]+\/public\/apps\/papers\/shared\.html\?token=[A-Za-z0-9_-]{20,}$/, 'a page of the front-end on the workspace\'s origin');
  await share.getByText(/^Expires [A-Z]/).waitFor();
  await dismissToasts(page);
  await checkPage(t, page, frame, 'the Share dialog with an anonymous link');
  await saveScreenshot(page, `${IMAGES}papers-share-1280.png`);
  await share.getByRole('button', { name: 'Close' }).click();

  // Request signatures: a person by name and e-mail.
  await frame.getByRole('button', { name: 'Request signatures' }).click();
  const sign = frame.getByRole('dialog', { name: 'Request signatures' });
  await sign.getByRole('button', { name: 'Send for signature' }).click();
  t.is(await sign.getByRole('alert').textContent(), 'signers must contain at least 1 items', 'the API\'s words');
  await sign.getByLabel('Name').fill('Dana Client');
  await sign.getByLabel('E-mail').fill('dana@example.com');
  await sign.getByRole('button', { name: 'Add signer' }).click();
  await sign.getByText('Dana Client <dana@example.com>').waitFor();
  await checkPage(t, page, frame, 'the Request signatures dialog');
  web.world.takeEvents();
  await sign.getByRole('button', { name: 'Send for signature' }).click();
  await sign.waitFor({ state: 'hidden' });
  const sent = web.world.takeEvents().filter((event) => event.action === 'core.papers.paper.signature_requested');
  t.is(sent.length, 1);
  t.like(sent[0]!.payload, { paper_id: made.id });
  await page.context().close();

  // The link in a fresh browser, not signed in: the read-only page shows the text.
  for (const width of [1280, 375]) {
    const stranger = await web.newPage(width);
    t.is((await stranger.goto(address))?.status(), 200);
    await stranger.getByText('Dear Acme Ltd,').waitFor();
    t.is(await stranger.getByRole('heading', { level: 1 }).first().textContent(), 'Offer letter');
    await stranger.getByText(/^Read-only: shared with anyone who has the link\. The link works until /).waitFor();
    t.is(await stranger.title(), 'Offer letter');
    t.is(await stranger.locator('[contenteditable], textarea, input').count(), 0, 'read-only');
    await checkPage(t, stranger, null, `the anonymous page at ${width} px`);
    await stranger.context().close();
  }
});

test.serial('at 375 px: the New from template and Share dialogs fit a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('link', { name: 'Minutes' }).waitFor();
  await frame.getByRole('button', { name: 'New from template' }).click();
  await frame.getByRole('dialog', { name: 'New from template' }).getByRole('textbox', { name: 'client (required)' }).waitFor();
  await checkPage(t, page, frame, 'the New from template dialog at 375 px');
  await frame.getByRole('dialog', { name: 'New from template' }).getByRole('button', { name: 'Cancel' }).click();
  await frame.getByRole('link', { name: 'Offer letter' }).click();
  await frame.getByRole('textbox', { name: 'Offer letter' }).waitFor();
  await frame.getByRole('button', { name: 'Share', exact: true }).click();
  await frame.getByRole('dialog', { name: 'Share' }).getByLabel('Department').waitFor();
  await checkPage(t, page, frame, 'the Share dialog at 375 px');
  await page.context().close();
});

test.serial('suggesting: one who may only suggest writes on a fork (insertions and deletions shown), never live; the owner accepts one suggestion (both pages show it) and rejects another (the text stays)', async (t) => {
  const sue = await web.world.member(['papers.papers.read', 'papers.papers.suggest'], { name: 'Sue Suggester' });
  const proposalId = ok(await ann.post('/papers', { title: 'Proposal', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'We launch soon' }] }] } })).id as string;
  ok(await ann.put(`/papers/${proposalId}/shares`, { shares: [{ principal_type: 'member', principal_id: sue.id, level: 'edit' }] }));
  const owner = await web.openApp(1280, { email: ann.email });
  const suggester = await web.openApp(1280, { email: sue.email });
  // Everything Sue's page asks of the server: a direct update (refused for her) must never be among it.
  const direct: string[] = [];
  const refused: string[] = [];
  suggester.page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(`/papers/${proposalId}/updates`)) direct.push(request.url());
  });
  suggester.page.on('response', (response) => {
    if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
  });
  for (const { frame } of [owner, suggester]) {
    await frame.getByRole('link', { name: 'Proposal' }).click();
    await frame.getByRole('textbox', { name: 'Proposal' }).waitFor();
    await frame.getByText('Saved').waitFor();
  }
  const annEditor = owner.frame.getByRole('textbox', { name: 'Proposal' });
  const sueEditor = suggester.frame.getByRole('textbox', { name: 'Proposal' });
  await suggester.frame.getByText('Suggesting', { exact: true }).waitFor();
  t.is(await owner.frame.getByText('Suggesting', { exact: true }).count(), 0, 'the owner edits live');

  // Sue replaces "soon" by "in June": her editor shows the deletion struck through and the insertion.
  await sueEditor.locator('p').first().click();
  await sueEditor.press('End');
  for (let count = 0; count < 4; count += 1) await sueEditor.press('Backspace');
  await sueEditor.pressSequentially('in June', { delay: 15 });
  await sueEditor.locator('ins', { hasText: 'in June' }).waitFor();
  t.is(await sueEditor.locator('ins').textContent(), 'in June');
  t.is(await sueEditor.locator('del').textContent(), 'soon');
  await checkPage(t, suggester.page, suggester.frame, 'a paper in suggesting mode, a change typed');
  await owner.page.waitForTimeout(300);
  t.is(await collabEditorText(owner.frame, 'Proposal'), 'We launch soon', 'nothing reached the owner live');
  t.is(await annEditor.locator('ins, del').count(), 0, 'the owner\'s editor shows no fork');
  t.is(ok(await ann.get(`/papers/${proposalId}`)).text, 'We launch soon');

  const sueSuggestions = suggester.frame.getByRole('region', { name: 'Suggestions' });
  await sueSuggestions.getByLabel('Note for the reviewer (optional)').fill('Date agreed with sales');
  await sueSuggestions.getByRole('button', { name: 'Submit suggestion' }).click();
  await sueSuggestions.getByRole('article', { name: 'Suggestion by Sue Suggester' }).waitFor();
  t.is(await sueEditor.locator('ins, del').count(), 0, 'the fork was sent and dropped');
  t.is(await sueSuggestions.getByRole('button', { name: 'Accept' }).count(), 0, 'one who may only suggest decides nothing');

  // Ann sees it in the panel (who, the note, what it adds and removes) and accepts it: both pages show the new text.
  const annSuggestions = owner.frame.getByRole('region', { name: 'Suggestions' });
  const first = annSuggestions.getByRole('article', { name: 'Suggestion by Sue Suggester' });
  await first.waitFor();
  await first.getByText('Date agreed with sales').waitFor();
  t.deepEqual(await first.locator('p').allTextContents().then((lines) => lines.slice(1)), ['Date agreed with sales', 'Adds in June', 'Removes soon']);
  await dismissToasts(owner.page);
  await checkPage(t, owner.page, owner.frame, 'the Suggestions panel with an open suggestion');
  await saveScreenshot(owner.page, `${IMAGES}papers-suggestions-1280.png`);
  await first.getByRole('button', { name: 'Accept' }).click();
  await annSuggestions.getByText('No open suggestions.').waitFor();
  await sueSuggestions.getByText('No open suggestions.').waitFor();
  const both = () => Promise.all([collabEditorText(owner.frame, 'Proposal'), collabEditorText(suggester.frame, 'Proposal')]);
  const accepted = (text: string) => text === 'We launch in June';
  const [a, b] = await untilConverged(both, accepted);
  t.is(a, 'We launch in June');
  t.is(b, 'We launch in June');
  t.is(ok(await ann.get(`/papers/${proposalId}`)).text, 'We launch in June');

  // A second suggestion, rejected: the text stays.
  await sueEditor.locator('p').first().click();
  await sueEditor.press('End');
  await sueEditor.pressSequentially(' or July', { delay: 15 });
  await sueEditor.locator('ins', { hasText: 'or July' }).waitFor();
  await sueSuggestions.getByRole('button', { name: 'Submit suggestion' }).click();
  const second = annSuggestions.getByRole('article', { name: 'Suggestion by Sue Suggester' });
  await second.getByText('Adds or July').waitFor();
  await second.getByRole('button', { name: 'Reject' }).click();
  await annSuggestions.getByText('No open suggestions.').waitFor();
  await sueSuggestions.getByText('No open suggestions.').waitFor();
  t.deepEqual(await both(), ['We launch in June', 'We launch in June']);
  t.is(ok(await ann.get(`/papers/${proposalId}`)).text, 'We launch in June');
  t.deepEqual((ok(await ann.get(`/papers/${proposalId}/suggestions`)) as Array<{ status: string }>).map((row) => row.status), ['accepted', 'rejected']);

  t.deepEqual(direct, [], 'Sue\'s page never sent a live update');
  t.deepEqual(refused, [], 'nothing refused');
  t.is(await suggester.frame.getByText('Saved').count(), 1, 'not Offline: nothing queued');
  t.is(await suggester.page.getByText(/papers\.papers\.edit is needed/).count(), 0, 'no refusal shown');
  await owner.page.context().close();
  await suggester.page.context().close();

  // On a phone: the panel and the suggesting editor fit.
  const phone = await web.openApp(375, { email: sue.email });
  await phone.frame.getByRole('link', { name: 'Proposal' }).click();
  await phone.frame.getByRole('textbox', { name: 'Proposal' }).waitFor();
  await phone.frame.getByRole('region', { name: 'Suggestions' }).getByRole('button', { name: 'Submit suggestion' }).waitFor();
  await checkPage(t, phone.page, phone.frame, 'suggesting at 375 px');
  await phone.page.context().close();
});
