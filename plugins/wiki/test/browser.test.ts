/**
 * The Wiki app's front-end in Chromium, through the real routes: an editor opens Wiki from the
 * launcher, opens a space and its page tree, edits a page as Markdown (a link to another page by
 * id), saves it and verifies it; the page reads back rendered, and the linked page lists it among
 * its backlinks. At 1280 px and at 375 px, axe-clean (no serious or critical violation) in the
 * shell and in the frame, no Content-Security-Policy violation, nothing wider than the window.
 * The screenshots are the ones docs/apps/wiki.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { accessibilityViolations, browseWorld, checkPage, cspViolations, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const KEYS = ['wiki.spaces.read', 'wiki.spaces.create', 'wiki.pages.edit'];

let web: WorldBrowser;
let ann: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, clock: new Date('2026-11-02T09:00:00.000Z') }), { link: 'Wiki', slug: 'wiki', ready: 'wiki-spaces' });
  const { world } = web;
  ann = await world.member(KEYS, { name: 'Ann Editor' });
  ids.space = ok(await world.owner.post('/wiki/spaces', { name: 'Handbook', description: 'How we work', default_role: 'edit' })).id;
  ids.onboarding = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Onboarding', markdown: 'Welcome aboard.\n' })).id;
  ids.laptop = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Your laptop', parent_id: ids.onboarding, markdown: '# Setting up\n\n- Turn it on\n- Sign in\n' })).id;
  ids.policies = ok(await world.owner.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Policies' })).id;
});

test.after.always(() => web?.close());

test.serial('at 1280 px: an editor edits a page as Markdown with a link by id, saves and verifies it', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('list', { name: 'Spaces' }).getByRole('link', { name: 'Handbook' }).click();
  const tree = frame.getByRole('list', { name: 'Pages' });
  await tree.getByRole('link', { name: 'Your laptop' }).waitFor();
  t.deepEqual(await tree.getByRole('link').allTextContents(), ['Onboarding', 'Your laptop', 'Policies']);
  await checkPage(t, page, frame, 'the page tree');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-tree-1280.png`);

  await tree.getByRole('link', { name: 'Onboarding' }).click();
  await frame.getByRole('heading', { name: 'Onboarding' }).waitFor();
  await frame.getByRole('button', { name: 'Edit' }).click();
  await frame.getByLabel('Content (Markdown; link a page as [text](page:id))').fill(`Welcome aboard.\n\n## First day\n\n1. Set up [your laptop](page:${ids.laptop})\n2. Meet the **team**\n`);
  await frame.getByRole('button', { name: 'Save' }).click();
  await frame.getByRole('heading', { name: 'First day' }).waitFor();
  await frame.getByRole('button', { name: 'Verify' }).click();
  await frame.getByText('Version 2 · Verified').waitFor();
  t.like(ok(await ann.get(`/wiki/pages/${ids.onboarding}`)), { version: 2, verification: 'verified', owner_id: ann.id });
  await checkPage(t, page, frame, 'a page read after its edit');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-page-1280.png`);

  await frame.getByRole('article').getByRole('link', { name: 'your laptop' }).click();
  await frame.getByRole('heading', { name: 'Your laptop' }).waitFor();
  await frame.getByRole('list', { name: 'Linked from' }).getByRole('link', { name: 'Onboarding' }).waitFor();
  await frame.getByRole('button', { name: 'Edit' }).click();
  await frame.getByLabel('Content (Markdown; link a page as [text](page:id))').waitFor();
  await checkPage(t, page, frame, 'a page edited as Markdown');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-edit-1280.png`);
  await page.context().close();
});

test.serial('at 375 px: a page reads on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('list', { name: 'Spaces' }).getByRole('link', { name: 'Handbook' }).click();
  await frame.getByRole('list', { name: 'Pages' }).getByRole('link', { name: 'Onboarding' }).click();
  await frame.getByRole('heading', { name: 'First day' }).waitFor();
  await checkPage(t, page, frame, 'a page at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wiki-page-375.png`);

  // A checklist and a table written as Markdown read as a list with ticks and a table with column headers.
  const policies = ok(await web.world.owner.get(`/wiki/pages/${ids.policies}`));
  ok(await web.world.owner.patch(`/wiki/pages/${ids.policies}`, { version: policies.version, markdown: '- [x] Read the handbook\n- [ ] Sign the policy\n  - [ ] Ask questions\n\n| Policy | Owner |\n| --- | --- |\n| Leave | Ann Editor |\n| Travel | |\n' }));
  await page.context().close();
  const phone = await web.openApp(375, { email: ann.email });
  await phone.frame.getByRole('list', { name: 'Spaces' }).getByRole('link', { name: 'Handbook' }).click();
  await phone.frame.getByRole('list', { name: 'Pages' }).getByRole('link', { name: 'Policies' }).click();
  const article = phone.frame.getByRole('article');
  await article.getByRole('table').waitFor();
  t.deepEqual(await article.getByRole('listitem').allTextContents(), ['☑ Read the handbook', '☐ Sign the policy☐ Ask questions', '☐ Ask questions']);
  t.deepEqual(await article.getByRole('columnheader').allTextContents(), ['Policy', 'Owner']);
  t.deepEqual(await article.getByRole('cell').allTextContents(), ['Leave', 'Ann Editor', 'Travel', '']);
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
