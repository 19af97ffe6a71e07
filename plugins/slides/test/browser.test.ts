/**
 * The Slides app's front-end in Chromium, through the real routes: a member opens Slides from the
 * launcher, makes a deck, adds a slide, writes its text and speaker notes, saves (a new version),
 * presents it (the presenter view: the slide, the next one, the notes, a timer) while a colleague
 * follows it, and each Next reaches the follower live. At 1280 px and at 375 px, axe-clean (no
 * serious or critical violation) in the shell and in the frame, no Content-Security-Policy
 * violation, nothing wider than the window. The screenshots are the ones docs/apps/slides.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';
import { ALL_KEYS } from './helpers/world.js';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, memberKeys: ALL_KEYS }), { link: 'Slides', slug: 'slides', ready: 'slides-decks' });
  ann = await web.world.member(ALL_KEYS, { name: 'Ann Presenter' });
  bob = await web.world.member(ALL_KEYS, { name: 'Bob Follower' });
});

test.after.always(() => web?.close());

test.serial('at 1280 px: a deck is made and edited (a slide added, its text and notes), presented, and followed live', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await checkPage(t, page, frame, 'the deck list');
  await frame.getByLabel('New deck title').fill('Launch plan');
  await frame.getByRole('button', { name: 'Create deck' }).click();
  const slides = frame.getByRole('list', { name: 'Slides' });
  await slides.getByRole('button', { name: '1. Launch plan' }).waitFor();

  await frame.getByLabel('New slide').selectOption('title_content');
  await slides.getByRole('button', { name: '2. Title and content' }).waitFor();
  await frame.getByLabel('Text: title').fill('Timeline');
  await frame.getByLabel('Text: body').fill('Beta in March\nLaunch in May');
  await frame.getByLabel('Speaker notes').fill('Stress the May date');
  await frame.getByText('unsaved changes').waitFor();
  await frame.getByRole('button', { name: 'Save' }).click();
  await frame.getByText('Version 3').waitFor();
  await slides.getByRole('button', { name: '2. Timeline' }).waitFor();
  await slides.getByRole('button', { name: 'Move slide 2 up' }).click();
  await slides.getByRole('button', { name: '1. Timeline' }).waitFor();
  await slides.getByRole('button', { name: 'Move slide 1 down' }).click();
  await frame.getByRole('button', { name: 'Save' }).click();
  await frame.getByText('Version 3').waitFor();
  const decks = ok(await ann.get('/slides/decks?q=launch'));
  const deck = ok(await ann.get(`/slides/decks/${decks[0].id}`));
  t.deepEqual(
    deck.slides.map((slide: { layout: string; notes: string; elements: Array<{ id: string; text: string }> }) => [slide.layout, slide.elements[0].text, slide.notes]),
    [
      ['title', 'Launch plan', ''],
      ['title_content', 'Timeline', 'Stress the May date'],
    ],
  );
  await frame.getByRole('list', { name: 'Slides' }).getByRole('button', { name: '1. Launch plan' }).click();
  await checkPage(t, page, frame, 'the slide editor');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}slides-editor-1280.png`);

  await frame.getByRole('button', { name: 'Present' }).click();
  await frame.locator('#position').getByText('Slide 1 of 2').waitFor();
  await frame.getByRole('img', { name: 'Next slide 2' }).waitFor();
  await frame.getByLabel('Elapsed time').waitFor();
  const presentation = ok(await ann.get(`/slides/decks/${deck.id}`)).live_presentation_id as string;
  t.truthy(presentation);

  const follower = await web.newPage(1280);
  const { signIn, appFrame } = await import('@wpk/testing/browser');
  await signIn(follower, web.origin, bob.email);
  await follower.goto(`${web.origin}/app/slides/presentations/${presentation}`);
  const followed = await appFrame(follower, 'slides-presenter');
  await followed.getByText('Following the presenter · slide 1 of 2').waitFor();

  await frame.getByRole('button', { name: 'Next' }).click();
  await frame.getByText('Stress the May date').waitFor();
  await followed.getByText('Following the presenter · slide 2 of 2').waitFor();
  await checkPage(t, page, frame, 'the presenter view');
  await saveScreenshot(page, `${IMAGES}slides-presenter-1280.png`);
  await checkPage(t, follower, followed, 'the follow view');

  await frame.getByRole('button', { name: 'End presentation' }).click();
  await followed.getByText('The presentation has ended.').waitFor();
  await follower.context().close();
  await page.context().close();
});

test.serial('at 375 px: the deck list and the editor read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('link', { name: 'Launch plan' }).waitFor();
  await checkPage(t, page, frame, 'the deck list at 375 px');
  await frame.getByRole('link', { name: 'Launch plan' }).click();
  await frame.getByRole('list', { name: 'Slides' }).waitFor();
  await checkPage(t, page, frame, 'the editor at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}slides-editor-375.png`);
  await page.context().close();
});
