/**
 * The Wiki app's front-end in Chromium, through the real routes and the live socket: an editor
 * opens Wiki from the launcher, opens a space and its page tree, opens a page in the collaborative
 * editor, rewrites it as Markdown (a link to another page by id), saves it (the open editor gets it
 * as one live edit) and verifies it; the linked page lists it among its backlinks. Two members type
 * into one page at once (in two paragraphs, an empty one, then one just made with Enter) and both
 * editors and the server converge with no character lost or doubled, while a view member follows it
 * read-only. A member starts a comment thread on a selection beside the page; the others see it
 * live, a view member reads it without commenting, and it is resolved and shows its range again in
 * the editor; a comment's link (`?comment=`) opens the page on that thread, an unknown one says so. At 1280 px and at 375 px, axe-clean (no serious or
 * critical violation) in the shell and in the frame, no Content-Security-Policy violation, nothing
 * wider than the window. MRN chips typed, linked and pasted show their record as search shows it
 * (a member it does not show reads "Restricted record"); a page marked as a template starts a new page.
 * The screenshots are the ones docs/apps/wiki.md shows.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { accessibilityViolations, appFrame, browseWorld, checkPage, collabEditorText, cspViolations, dismissToasts, saveScreenshot, untilConverged, type Frame, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const KEYS = ['wiki.spaces.read', 'wiki.spaces.create', 'wiki.pages.edit', 'wiki.comments.create'];

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;
let cleo: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, clock: new Date('2026-11-02T09:00:00.000Z') }), { link: 'Wiki', slug: 'wiki', ready: 'wiki-spaces' });
  const { world } = web;
  ann = await world.member(KEYS, { name: 'Ann Editor' });
  bob = await world.member(KEYS, { name: 'Bob Writer' });
  cleo = await world.member(KEYS, { name: 'Cleo Reader' });
  ids.space = ok(await world.owner.post('/wiki/spaces', { name: 'Handbook', description: 'How we work', default_role: 'edit' })).id;
  ok(await world.owner.put(`/wiki/spaces/${ids.space}/members`, { members: [{ member_id: cleo.id, role: 'view' }] }));
  ids.onboarding = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Onboarding', markdown: 'Welcome aboard.\n' })).id;
  ids.laptop = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Your laptop', parent_id: ids.onboarding, markdown: '# Setting up\n\n- Turn it on\n- Sign in\n' })).id;
  ids.policies = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Policies' })).id;
  const paragraph = (text?: string) => (text ? { type: 'paragraph', content: [{ type: 'text', text }] } : { type: 'paragraph' });
  ids.notes = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Meeting notes', content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Weekly sync' }] }, paragraph('Budget:'), paragraph('Hiring:'), paragraph()] } })).id;
});

test.after.always(() => web?.close());

/** The page's editor (its text box is named by the page's title). */
const editorOf = (frame: Frame, title: string) => frame.getByRole('textbox', { name: title });

/** Opens a page of the Handbook from the tree and waits for its editor to be loaded. */
async function openPage(frame: Frame, title: string): Promise<void> {
  await frame.getByRole('list', { name: 'Spaces' }).getByRole('link', { name: 'Handbook' }).click();
  await frame.getByRole('list', { name: 'Pages' }).getByRole('link', { name: title }).click();
  await editorOf(frame, title).waitFor();
  await frame.getByText('Saved').waitFor();
}

test.serial('at 1280 px: an editor opens a page in the live editor, rewrites it as Markdown with a link by id, saves and verifies it', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('list', { name: 'Spaces' }).getByRole('link', { name: 'Handbook' }).click();
  const tree = frame.getByRole('list', { name: 'Pages' });
  await tree.getByRole('link', { name: 'Your laptop' }).waitFor();
  t.deepEqual(await tree.getByRole('link').allTextContents(), ['Onboarding', 'Your laptop', 'Policies', 'Meeting notes']);
  await checkPage(t, page, frame, 'the page tree');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-tree-1280.png`);

  await tree.getByRole('link', { name: 'Onboarding' }).click();
  const editor = editorOf(frame, 'Onboarding');
  await editor.getByText('Welcome aboard.').waitFor();
  await frame.getByText('Saved').waitFor();
  await frame.getByRole('button', { name: 'Edit as Markdown' }).click();
  await frame.getByLabel('Content (Markdown; link a page as [text](page:id))').fill(`Welcome aboard.\n\n## First day\n\n1. Set up [your laptop](page:${ids.laptop})\n2. Meet the **team**\n`);
  await frame.getByRole('button', { name: 'Save' }).click();
  await editor.getByText('First day').waitFor();
  await frame.getByRole('button', { name: 'Verify' }).click();
  await frame.getByText('Version 2 · Verified').waitFor();
  t.like(ok(await ann.get(`/wiki/pages/${ids.onboarding}`)), { verification: 'verified', owner_id: ann.id });
  // The editor ends a page whose last block is not a paragraph with an empty one (tiptap's trailing node).
  t.is(await collabEditorText(frame, 'Onboarding'), 'Welcome aboard.\nFirst day\nSet up your laptopMeet the team\n');
  await checkPage(t, page, frame, 'a page in the live editor');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-page-1280.png`);

  await frame.getByRole('list', { name: 'Links on this page' }).getByRole('link', { name: 'your laptop' }).click();
  await editorOf(frame, 'Your laptop').getByText('Setting up').waitFor();
  await frame.getByRole('list', { name: 'Linked from' }).getByRole('link', { name: 'Onboarding' }).waitFor();
  await frame.getByRole('button', { name: 'Edit as Markdown' }).click();
  await frame.getByLabel('Content (Markdown; link a page as [text](page:id))').waitFor();
  await checkPage(t, page, frame, 'a page rewritten as Markdown');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-edit-1280.png`);
  await page.context().close();
});

test.serial('at 1280 px: two members type into one page at once and converge with no character lost; a view member follows it read-only', async (t) => {
  const first = await web.openApp(1280, { email: ann.email });
  const second = await web.openApp(1280, { email: bob.email });
  const reader = await web.openApp(375, { email: cleo.email });
  await openPage(first.frame, 'Meeting notes');
  await openPage(second.frame, 'Meeting notes');
  await openPage(reader.frame, 'Meeting notes');
  // Who is here: each editor shows the other member.
  await first.frame.getByLabel('Who is here').getByText('Bob Writer').waitFor();
  await second.frame.getByLabel('Who is here').getByText('Ann Editor').waitFor();
  // The view member reads it in the same editor, not editable, with no formatting bar and no Markdown edit.
  const readOnly = editorOf(reader.frame, 'Meeting notes');
  t.is(await readOnly.getAttribute('contenteditable'), 'false');
  t.is(await reader.frame.getByRole('button', { name: 'Bold' }).count(), 0);
  t.is(await reader.frame.getByRole('button', { name: 'Edit as Markdown' }).count(), 0);

  const annText = ' the budget is approved';
  const bobText = ' starts in May, said Bob';
  const annEditor = editorOf(first.frame, 'Meeting notes');
  const bobEditor = editorOf(second.frame, 'Meeting notes');
  await annEditor.locator('p').nth(0).click();
  await annEditor.press('End');
  await bobEditor.locator('p').nth(1).click();
  await bobEditor.press('End');
  await Promise.all([annEditor.pressSequentially(annText, { delay: 15 }), bobEditor.pressSequentially(bobText, { delay: 15 })]);

  const expected = `Weekly sync\nBudget:${annText}\nHiring:${bobText}\n`;
  const texts = () => Promise.all([collabEditorText(first.frame, 'Meeting notes'), collabEditorText(second.frame, 'Meeting notes'), collabEditorText(reader.frame, 'Meeting notes')]);
  let [a, b, c] = await untilConverged(texts, (text) => text === expected);
  t.is(a, expected, 'every character of both, once');
  t.is(b, a, 'both editors hold the same text');
  t.is(c, a, 'the view member sees it live');
  await first.frame.getByText('Saved').waitFor();
  await second.frame.getByText('Saved').waitFor();
  t.is(ok(await ann.get(`/wiki/pages/${ids.notes}/document`)).text, expected.trimEnd(), 'every character reached the server, once');

  // Both type the first characters of one empty paragraph at once.
  await annEditor.locator('p').nth(2).click();
  await bobEditor.locator('p').nth(2).click();
  await Promise.all([annEditor.pressSequentially('aaaaaaaaaaaa', { delay: 15 }), bobEditor.pressSequentially('bbbbbbbbbbbb', { delay: 15 })]);
  const both = (text: string) => ['aaaaaaaaaaaabbbbbbbbbbbb', 'bbbbbbbbbbbbaaaaaaaaaaaa'].includes(text.split('\n')[3] ?? '');
  [a, b, c] = await untilConverged(texts, both);
  t.is(b, a);
  t.is(c, a);
  t.true(both(a), JSON.stringify(a));
  await first.frame.getByText('Saved').waitFor();
  await second.frame.getByText('Saved').waitFor();
  t.is(ok(await ann.get(`/wiki/pages/${ids.notes}/document`)).text, a, 'the server holds the same text');
  t.is(ok(await ann.get(`/wiki/pages/${ids.notes}`)).markdown, `## Weekly sync\n\nBudget:${annText}\n\nHiring:${bobText}\n\n${a.split('\n')[3]}\n`, "the page's Markdown is the document's");

  await checkPage(t, first.page, first.frame, 'two members in one page');
  await dismissToasts(first.page);
  await saveScreenshot(first.page, `${IMAGES}wiki-live-1280.png`);
  await checkPage(t, reader.page, reader.frame, 'a view member reading a live page at 375 px');

  // Ann makes a new paragraph with Enter and both type its first characters at once (issue 43:
  // each replica made its own text in the new paragraph and one character came out twice).
  await annEditor.locator('p').nth(2).click();
  await annEditor.press('End');
  await annEditor.press('Enter');
  await bobEditor.locator('p').nth(3).waitFor();
  await bobEditor.locator('p').nth(3).click();
  await Promise.all([annEditor.pressSequentially('cccccccccccc', { delay: 15 }), bobEditor.pressSequentially('dddddddddddd', { delay: 15 })]);
  const fresh = (text: string) => ['ccccccccccccdddddddddddd', 'ddddddddddddcccccccccccc'].includes(text.split('\n')[4] ?? '');
  [a, b, c] = await untilConverged(texts, fresh);
  t.is(b, a, 'both editors hold the same text');
  t.is(c, a, 'the view member sees it live');
  t.true(fresh(a), JSON.stringify(a));
  await first.frame.getByText('Saved').waitFor();
  await second.frame.getByText('Saved').waitFor();
  t.is(ok(await ann.get(`/wiki/pages/${ids.notes}/document`)).text, a, 'the server holds the same text');
  for (const opened of [first, second, reader]) await opened.page.context().close();
});

test.serial('at 1280 px: a member comments on a selection beside the page; the others see the thread live; a view member reads it; it is resolved', async (t) => {
  const writer = await web.openApp(1280, { email: bob.email });
  const other = await web.openApp(1280, { email: ann.email });
  const reader = await web.openApp(1280, { email: cleo.email });
  for (const opened of [writer, other, reader]) await openPage(opened.frame, 'Your laptop');
  const threadsOf = (frame: Frame) => frame.getByRole('list', { name: 'Comment threads' });

  // Bob selects "Turn it on" and starts a thread on it.
  await editorOf(writer.frame, 'Your laptop').getByText('Turn it on').click({ clickCount: 3 });
  await writer.frame.getByRole('button', { name: 'Comment on the selection' }).click();
  await writer.frame.getByRole('textbox', { name: 'Comment', exact: true }).fill('Which button?');
  await writer.frame.getByRole('button', { name: 'Start thread' }).click();
  await threadsOf(writer.frame).getByText('Bob Writer').waitFor();
  const [thread] = ok(await bob.get(`/wiki/pages/${ids.laptop}/comments`)) as Array<{ quote: string; body: string; anchor: unknown; author_id: string }>;
  t.like(thread, { quote: 'Turn it on', body: 'Which button?', author_id: bob.id });
  t.truthy(thread!.anchor);

  // Ann and Cleo, on the same page, get it live; Cleo (view) reads it, with nothing to comment with.
  await threadsOf(other.frame).getByText('Which button?').waitFor();
  await threadsOf(reader.frame).getByText('Which button?').waitFor();
  t.is(await reader.frame.getByRole('button', { name: 'Comment on the selection' }).count(), 0);
  t.is(await reader.frame.getByRole('button', { name: 'Reply' }).count(), 0);

  // Ann replies and resolves it; Bob sees both live; Show selects the range again.
  await threadsOf(other.frame).getByRole('button', { name: 'Reply' }).click();
  await other.frame.getByRole('textbox', { name: 'Reply', exact: true }).fill('The one on the left');
  await other.frame.getByRole('button', { name: 'Send reply' }).click();
  await threadsOf(writer.frame).getByText('The one on the left').waitFor();
  await threadsOf(other.frame).getByRole('button', { name: 'Resolve' }).click();
  await threadsOf(writer.frame).getByText('Resolved').waitFor();
  await threadsOf(writer.frame).getByRole('button', { name: 'Show' }).click();
  type Pm = { editor: { state: { doc: { textBetween(from: number, to: number): string }; selection: { from: number; to: number } } } };
  const selected = await writer.frame.locator('wiki-page').evaluate((element) => {
    const { state } = (element.shadowRoot!.querySelector('wpk-collab-editor') as unknown as Pm).editor;
    return state.doc.textBetween(state.selection.from, state.selection.to);
  });
  t.is(selected, 'Turn it on', 'Show selects the range the thread is on');

  await checkPage(t, writer.page, writer.frame, 'comment threads beside a page');
  await dismissToasts(writer.page);
  await saveScreenshot(writer.page, `${IMAGES}wiki-comments-1280.png`);

  // A comment mention's link (`/wiki/pages/{id}?comment={comment_id}`, here a reply's) opens the page with that thread marked and its range selected; an unknown comment is a short notice.
  const reply = (ok(await ann.get(`/wiki/pages/${ids.laptop}/comments`)) as Array<{ id: string; body: string }>).find((row) => row.body === 'The one on the left')!;
  await other.page.goto(`${web.origin}/app/wiki/wiki/pages/${ids.laptop}?comment=${reply.id}`);
  const linked = await appFrame(other.page, 'wiki-page');
  const current = linked.locator('article[aria-current="true"]');
  await current.getByText('The one on the left').waitFor();
  t.is(await current.getAttribute('aria-label'), 'Thread on Turn it on');
  let linkedSelection = '';
  for (let attempt = 0; attempt < 50 && linkedSelection !== 'Turn it on'; attempt += 1) {
    linkedSelection = await linked.locator('wiki-page').evaluate((element) => {
      const editor = (element.shadowRoot!.querySelector('wpk-collab-editor') as unknown as Partial<Pm>).editor;
      return editor ? editor.state.doc.textBetween(editor.state.selection.from, editor.state.selection.to) : '';
    });
    if (linkedSelection !== 'Turn it on') await other.page.waitForTimeout(100);
  }
  t.is(linkedSelection, 'Turn it on', 'the linked thread\'s range is selected');
  await checkPage(t, other.page, linked, 'a page opened by a comment\'s link');
  await other.page.goto(`${web.origin}/app/wiki/wiki/pages/${ids.laptop}?comment=${randomUUID()}`);
  const missing = await appFrame(other.page, 'wiki-page');
  await missing.getByRole('status').filter({ hasText: 'The comment this link points to is not here: it was deleted, or the link is wrong.' }).waitFor();
  t.is(await missing.locator('article[aria-current="true"]').count(), 0);
  for (const opened of [writer, other, reader]) await opened.page.context().close();
});

test.serial('at 375 px: a page reads on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await openPage(frame, 'Onboarding');
  await editorOf(frame, 'Onboarding').getByText('First day').waitFor();
  await checkPage(t, page, frame, 'a page at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-page-375.png`);

  // A checklist and a table written as Markdown show in the editor as checkboxes and a table with column headers.
  const policies = ok(await web.world.owner.get(`/wiki/pages/${ids.policies}`));
  ok(await web.world.owner.patch(`/wiki/pages/${ids.policies}`, { version: policies.version, markdown: '- [x] Read the handbook\n- [ ] Sign the policy\n  - [ ] Ask questions\n\n| Policy | Owner |\n| --- | --- |\n| Leave | Ann Editor |\n| Travel | |\n' }));
  await page.context().close();
  const phone = await web.openApp(375, { email: ann.email });
  await openPage(phone.frame, 'Policies');
  const editor = editorOf(phone.frame, 'Policies');
  await editor.locator('table').waitFor();
  t.true(await editor.getByRole('checkbox', { name: 'Done: Read the handbook' }).isChecked());
  t.false(await editor.getByRole('checkbox', { name: 'Done: Sign the policy' }).isChecked());
  t.false(await editor.getByRole('checkbox', { name: 'Done: Ask questions' }).isChecked());
  t.deepEqual(await editor.locator('th').allTextContents(), ['Policy', 'Owner']);
  t.deepEqual(await editor.locator('td').allTextContents(), ['Leave', 'Ann Editor', 'Travel', '']);
  await checkPage(t, phone.page, phone.frame, 'a checklist and a table at 375 px');
  await phone.page.context().close();
});

test.serial('at 375 px: a published subtree reads on the public site without signing in; an unpublished page does not', async (t) => {
  ok(await web.world.owner.put(`/wiki/spaces/${ids.space}/publication`, { page_id: ids.onboarding }));
  const page = await web.newPage(375);
  await page.goto(`${web.origin}/public/apps/wiki/site.html?page=${ids.onboarding}`);
  await page.getByRole('heading', { level: 1, name: 'Onboarding' }).waitFor();
  await page.getByRole('heading', { name: 'First day' }).waitFor();
  t.is(await page.getByRole('article').getByRole('link', { name: 'your laptop' }).getAttribute('href'), `/public/apps/wiki/site.html?page=${ids.laptop}`);
  t.deepEqual(await accessibilityViolations(page), [], 'axe on a published page');
  await saveScreenshot(page, `${IMAGES}wiki-site-375.png`);
  await page.getByRole('article').getByRole('link', { name: 'your laptop' }).click();
  await page.getByRole('heading', { level: 1, name: 'Your laptop' }).waitFor();
  await page.goto(`${web.origin}/public/apps/wiki/site.html`);
  await page.getByRole('region', { name: 'Handbook' }).getByRole('link', { name: 'Your laptop' }).waitFor();
  t.deepEqual(await page.getByRole('region', { name: 'Handbook' }).getByRole('link').allTextContents(), ['Onboarding', 'Your laptop']);
  await page.goto(`${web.origin}/public/apps/wiki/site.html?page=${ids.policies}`);
  await page.getByRole('status').getByText(`Page ${ids.policies} is not published`).waitFor();
  t.deepEqual(await cspViolations(page), [], 'CSP on the public site');
  t.deepEqual(await accessibilityViolations(page), [], 'axe on a refusal');
  await page.context().close();
});

test.serial('at 1280 px: an MRN typed, linked or pasted into a page becomes a chip showing the record as search shows it, opening it; a member whom search does not show it reads "Restricted record"', async (t) => {
  const { world } = web;
  const board = ok(await world.owner.post('/wiki/spaces', { name: 'Board', default_role: 'none' })).id;
  ok(await world.owner.put(`/wiki/spaces/${board}/members`, { members: [{ member_id: ann.id, role: 'view' }] }));
  const minutes = ok(await world.owner.post(`/wiki/spaces/${board}/pages`, { title: 'Board minutes' })).id;
  const links = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Links' })).id;

  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await openPage(frame, 'Links');
  const editor = editorOf(frame, 'Links');
  await editor.click();
  await page.keyboard.type(`Minutes: mrn:wiki:page:${minutes} and `);
  await editor.locator('.wpk-record').getByRole('link', { name: 'Page Board minutes' }).waitFor();
  // "Link a record": the form, keyboard first.
  await frame.getByRole('button', { name: 'Link a record' }).click();
  const mrnField = frame.getByLabel("Record's MRN (a bare MRN typed or pasted in the text works too)");
  await mrnField.fill('not an mrn');
  await mrnField.press('Enter');
  await frame.getByRole('alert').getByText('An MRN looks like mrn:{app}:{resource}:{id}, for example mrn:wiki:page:…').waitFor();
  await mrnField.fill(`mrn:wiki:page:${ids.laptop}`);
  await mrnField.press('Enter');
  await editor.locator('.wpk-record').getByRole('link', { name: 'Page Your laptop' }).waitFor();
  // Pasted, a bare MRN becomes a chip too.
  await editor.evaluate((element, mrn) => {
    // The page's own constructors (this file compiles without the DOM library).
    const page = globalThis as unknown as { DataTransfer: new () => { setData(type: string, value: string): void }; ClipboardEvent: new (type: string, init: object) => Event };
    const data = new page.DataTransfer();
    data.setData('text/plain', mrn);
    element.dispatchEvent(new page.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, `mrn:wiki:page:${ids.onboarding}`);
  await editor.locator('.wpk-record').getByRole('link', { name: 'Page Onboarding' }).waitFor();
  await frame.getByText('Saved').waitFor();
  const stored = ok(await ann.get(`/wiki/pages/${links}`)) as { content: { content: Array<{ content?: Array<{ type: string; attrs?: unknown }> }> } };
  t.deepEqual(stored.content.content[0]!.content!.filter((node) => node.type === 'record'), [{ type: 'record', attrs: { mrn: `mrn:wiki:page:${minutes}` } }, { type: 'record', attrs: { mrn: `mrn:wiki:page:${ids.laptop}` } }, { type: 'record', attrs: { mrn: `mrn:wiki:page:${ids.onboarding}` } }]);
  await checkPage(t, page, frame, 'MRN chips in a page');
  // A click opens the record where search links it: the shell goes to its page in its app.
  await editor.locator('.wpk-record').getByRole('link', { name: 'Page Your laptop' }).click();
  await page.waitForURL(`${web.origin}/app/wiki/wiki/pages/${ids.laptop}`);
  await editorOf(await appFrame(page, 'wiki-page'), 'Your laptop').getByText('Setting up').waitFor();
  await page.context().close();

  // Cleo has no role on Board: search does not show her its page, so neither does the chip.
  const reader = await web.openApp(1280, { email: cleo.email });
  await openPage(reader.frame, 'Links');
  const chips = editorOf(reader.frame, 'Links').locator('.wpk-record');
  await chips.getByRole('link', { name: 'Page Onboarding' }).waitFor();
  await chips.filter({ hasText: 'Restricted record' }).waitFor();
  t.deepEqual(await chips.allTextContents(), ['Restricted record', 'Page Your laptop', 'Page Onboarding']);
  t.false((await reader.frame.locator('body').innerText()).includes('Board minutes'));
  await checkPage(t, reader.page, reader.frame, 'a restricted MRN chip');
  await reader.page.context().close();
});

test.serial('at 1280 px: an editor marks a page as a template and starts a new page from it, listed with the templates of the other spaces they see', async (t) => {
  const { world } = web;
  const elsewhere = ok(await world.owner.post('/wiki/spaces', { name: 'Sales', default_role: 'view' })).id;
  ok(await world.owner.post(`/wiki/spaces/${elsewhere}/pages`, { title: 'Call notes', template: true, markdown: 'Who called:\n' }));
  const secret = ok(await world.owner.post('/wiki/spaces', { name: 'Secret', default_role: 'none' })).id;
  ok(await world.owner.post(`/wiki/spaces/${secret}/pages`, { title: 'Hidden template', template: true }));

  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await openPage(frame, 'Your laptop');
  await frame.getByRole('button', { name: 'Mark as template' }).click();
  await frame.getByRole('button', { name: 'Unmark as template' }).waitFor();
  t.true((ok(await ann.get(`/wiki/pages/${ids.laptop}`)) as { template: boolean }).template);

  await frame.getByRole('link', { name: 'Back to the space' }).click();
  const tree = frame.getByRole('list', { name: 'Pages' });
  await tree.getByText('Template').waitFor();
  const from = frame.getByLabel('From');
  await from.locator('option', { hasText: 'Call notes' }).waitFor({ state: 'attached' });
  t.deepEqual(await from.locator('option').allTextContents(), ['A blank page', 'The template Your laptop (Handbook)', 'The template Call notes (Sales)']);
  await frame.getByLabel('Title').fill('A new laptop');
  await from.selectOption({ label: 'The template Your laptop (Handbook)' });
  await checkPage(t, page, frame, 'a new page from a template');
  await frame.getByRole('button', { name: 'Add page' }).click();
  await editorOf(frame, 'A new laptop').getByText('Setting up').waitFor();
  t.is(await collabEditorText(frame, 'A new laptop'), 'Setting up\nTurn it onSign in\n');
  await page.context().close();
});
