/**
 * The Slides app's front-end in Chromium, through the real routes: a member opens Slides from the
 * launcher, makes a deck, adds a slide, writes its text and speaker notes (each change sent live),
 * two pages (1280 and 375 px) edit one deck at once and converge with nothing lost (a slide moved
 * while the other page types in it keeps the typing; the title, the theme and an element moved by
 * its fields and the arrow keys reach the other page), a member
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

/** Reads until `done` holds (ten seconds at most), and answers the last read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let tries = 0; tries < 50 && !done(value); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

/** True when every character of `part` appears in `whole`, in order. */
const isSubsequence = (part: string, whole: string) => {
  let at = 0;
  for (const char of whole) if (char === part[at]) at += 1;
  return at === part.length;
};

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
  await slides.getByRole('button', { name: '2. Timeline' }).waitFor();
  await slides.getByRole('button', { name: 'Move slide 2 up' }).click();
  await slides.getByRole('button', { name: '1. Timeline' }).waitFor();
  await slides.getByRole('button', { name: 'Move slide 1 down' }).click();
  await slides.getByRole('button', { name: '2. Timeline' }).waitFor();
  await frame.getByRole('status').getByText('Saved').waitFor();
  const decks = ok(await ann.get('/slides/decks?q=launch'));
  const shape = (deck: { slides: Array<{ layout: string; notes: string; elements: Array<{ text: string }> }> }) => deck.slides.map((slide) => [slide.layout, slide.elements[0].text, slide.notes]);
  const deck = await until(async () => ok(await ann.get(`/slides/decks/${decks[0].id}`)), (read) => JSON.stringify(shape(read)) === JSON.stringify([['title', 'Launch plan', ''], ['title_content', 'Timeline', 'Stress the May date']]));
  t.deepEqual(shape(deck), [
    ['title', 'Launch plan', ''],
    ['title_content', 'Timeline', 'Stress the May date'],
  ]);
  t.is(deck.slides[1].elements[1].text, 'Beta in March\nLaunch in May');
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

test.serial('two pages (1280 and 375 px) edit one deck at once: both type into one text box while one adds a slide, one moves the slide the other types in; both end with the same deck, nothing lost; the title, theme and an element\'s place and style reach the other page live', async (t) => {
  const made = ok(await ann.post('/slides/decks', { title: 'Together', slides: [{ id: 'one', layout: 'title_content', elements: [{ id: 'body', type: 'text', x: 60, y: 170, width: 1160, height: 400, text: 'Start.' }] }] }));
  const a = await web.openApp(1280, { email: ann.email });
  const b = await web.openApp(375, { email: bob.email });
  for (const { frame } of [a, b]) {
    await frame.getByRole('link', { name: 'Together' }).click();
    await frame.getByLabel('Text: body').waitFor();
  }
  // Each sees the other here.
  await a.frame.getByRole('group', { name: 'Who is here' }).getByText('Bob Follower').waitFor();
  await b.frame.getByRole('group', { name: 'Who is here' }).getByText('Ann Presenter').waitFor();

  const annText = ' Ann writes this line.';
  const bobText = ' Bob adds his.';
  const boxA = a.frame.getByLabel('Text: body');
  const boxB = b.frame.getByLabel('Text: body');
  await boxA.focus();
  await boxA.press('End');
  await boxB.focus();
  await boxB.press('End');
  // At once: Ann types all along while Bob types into the same box, then adds a slide.
  await Promise.all([
    boxA.pressSequentially(annText, { delay: 40 }),
    (async () => {
      await boxB.pressSequentially(bobText, { delay: 40 });
      await b.frame.getByLabel('New slide').selectOption('section');
    })(),
  ]);

  const state = async () => ({
    a: await boxA.inputValue().catch(() => ''),
    b: await a.frame.getByRole('list', { name: 'Slides' }).getByRole('listitem').count(),
    c: await b.frame.getByRole('list', { name: 'Slides' }).getByRole('listitem').count(),
    server: ok(await ann.get(`/slides/decks/${made.id}`)),
  });
  const settled = await until(state, (now) => now.server.slide_count === 2 && now.b === 2 && now.c === 2 && now.a === now.server.slides[0].elements[0].text && now.a.length === 'Start.'.length + annText.length + bobText.length);
  await b.frame.getByRole('list', { name: 'Slides' }).getByRole('button', { name: '1. Start.' }).click();
  const text = settled.server.slides[0].elements[0].text as string;
  t.is(await boxB.inputValue(), text, 'both pages show the same text');
  t.is(text.length, 'Start.'.length + annText.length + bobText.length, 'no character lost');
  t.true(text.startsWith('Start.'));
  t.true(isSubsequence(annText, text), `Ann's typing is all there in order: ${text}`);
  t.true(isSubsequence(bobText, text), `Bob's typing is all there in order: ${text}`);
  t.deepEqual(settled.server.slides.map((slide: { layout: string }) => slide.layout), ['title_content', 'section'], 'the slide added meanwhile is kept');

  // At once: Bob moves the first slide down while Ann types in it; her text survives the move.
  const moreText = ' Moved.';
  await boxA.focus();
  await boxA.press('End');
  await Promise.all([
    boxA.pressSequentially(moreText, { delay: 40 }),
    (async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await b.frame.getByRole('list', { name: 'Slides' }).getByRole('button', { name: 'Move slide 1 down' }).click();
    })(),
  ]);
  const moved = await until(async () => ok(await ann.get(`/slides/decks/${made.id}`)), (read) => read.slides[1]?.id === 'one' && (read.slides[1].elements[0].text as string).endsWith(moreText));
  t.deepEqual(moved.slides.map((slide: { layout: string }) => slide.layout), ['section', 'title_content'], 'the slide moved');
  t.is(moved.slides[1].elements[0].text, `${text}${moreText}`, 'what Ann typed while Bob moved the slide is kept');

  // Ann renames the deck, picks a theme and nudges the body's text box; Bob sees each live.
  await a.frame.getByLabel('Deck title').fill('Together, renamed');
  await b.frame.getByRole('heading', { name: 'Together, renamed' }).waitFor();
  await a.frame.getByLabel('Theme').selectOption('Dark');
  t.is(await until(() => b.frame.getByLabel('Theme').inputValue(), (value) => value === 'Dark'), 'Dark', 'the other page shows the theme picked');
  await a.frame.getByLabel('Element', { exact: true }).selectOption('body');
  await a.frame.getByLabel('X', { exact: true }).fill('100');
  await a.frame.getByLabel('X', { exact: true }).press('Enter');
  await a.frame.getByLabel('Font size').fill('40');
  await a.frame.getByLabel('Font size').press('Enter');
  await a.frame.getByLabel(/Slide stage/).focus();
  await a.frame.getByLabel(/Slide stage/).press('ArrowDown');
  const styled = await until(async () => ok(await ann.get(`/slides/decks/${made.id}`)), (read) => read.slides[1]?.elements[0].y === 180 && read.slides[1].elements[0].font_size === 40 && read.title === 'Together, renamed');
  t.like(styled, { title: 'Together, renamed', theme: { font: 'sans', background: '#111827', text: '#f9fafb', accent: '#22c55e' } });
  t.like(styled.slides[1].elements[0], { x: 100, y: 180, font_size: 40 });
  // Dragging on the slide moves the selected element by the pointer's way, scaled to the 1280 px stage.
  const stage = (await a.frame.getByLabel(/Slide stage/).boundingBox())!;
  const scale = 1280 / (await a.frame.locator('.stage-edit .stage-frame').boundingBox())!.width;
  await a.page.mouse.move(stage.x + 100, stage.y + 50);
  await a.page.mouse.down();
  await a.page.mouse.move(stage.x + 140, stage.y + 50, { steps: 4 });
  await a.page.mouse.up();
  const dragged = await until(async () => ok(await ann.get(`/slides/decks/${made.id}`)), (read) => read.slides[1]?.elements[0].x === Math.round(100 + 40 * scale));
  t.is(dragged.slides[1].elements[0].x, Math.round(100 + 40 * scale), 'a drag moves the element');
  t.is(dragged.slides[1].elements[0].y, 180);
  await b.frame.getByRole('list', { name: 'Slides' }).getByRole('button', { name: /^2\./ }).click();
  await b.frame.getByLabel('Element', { exact: true }).selectOption('body');
  t.is(await b.frame.getByLabel('X', { exact: true }).inputValue(), String(dragged.slides[1].elements[0].x), 'the other page sees the element moved');
  await checkPage(t, a.page, a.frame, 'the editor with two editors at 1280 px');
  await checkPage(t, b.page, b.frame, 'the editor with two editors at 375 px');
  await a.page.context().close();
  await b.page.context().close();
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
