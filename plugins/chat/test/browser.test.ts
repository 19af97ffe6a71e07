/**
 * The Chat app's front-end in Chromium, through the real routes and the real live socket: two
 * members, each in a browser profile of their own, chat in one group. Ann opens Chat from the
 * launcher (the unread count of a direct chat, a favourite star, a personal list), Bob opens the group by its
 * link; Ann sees Bob online and typing, Bob mentions her through the autocomplete, she reacts,
 * he edits, she replies in a thread, he deletes a message (a tombstone stays), her read position
 * moves when she opens the direct chat. Then every live socket is closed by the server, Bob posts
 * twice while they are down, and Ann's open chat comes back by itself with exactly the messages
 * the API holds: nothing missing, nothing doubled; Ann shares a file from her computer. At 1280 px and at 375 px, axe-clean in the
 * shell and in the frame, no Content-Security-Policy violation, nothing wider than the window.
 * The screenshots are the ones docs/apps/chat.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { appFrame, browseWorld, checkPage, dismissToasts, saveScreenshot, signIn, type Frame, type WorldBrowser } from '@wpk/testing/browser';
import { ALL_KEYS } from './helpers/world.js';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;
let launch: string;
let direct: string;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, memberKeys: ALL_KEYS }), { link: 'Chat', exact: true, slug: 'chat', ready: 'chat-home' });
  ann = await web.world.member(ALL_KEYS, { name: 'Ann Archer' });
  bob = await web.world.member(ALL_KEYS, { name: 'Bob Baker' });
  launch = ok(await ann.post('/chats', { type: 'group', name: 'Launch', participant_mrns: [bob.mrn] })).id;
  direct = ok(await bob.post('/chats', { type: 'direct', participant_mrns: [ann.mrn] })).id;
  ok(await bob.post(`/chats/${direct}/messages`, { body: 'Lunch at noon?' }));
});

test.after.always(() => web?.close());

/** The texts of the messages a chat view shows, oldest first (a tombstone reads as such). */
const shown = (frame: Frame) => frame.locator('ol.messages li.message .body').allTextContents();
/** One message of the open chat, by its text. */
const messageOf = (frame: Frame, text: string) => frame.locator('ol.messages li.message', { hasText: text });
/** The texts of a chat's top-level messages as the API holds them, oldest first. */
async function stored(chatId: string): Promise<string[]> {
  const messages = ok(await ann.get(`/chats/${chatId}/messages?per_page=100`)) as Array<{ body: string | null; deleted: boolean }>;
  return messages.reverse().map((message) => (message.deleted ? 'This message was deleted.' : message.body!.replace(`<@${ann.id}>`, '@Ann Archer')));
}

test.serial('at 1280 px: two members chat live, and a dropped socket resumes without a gap or a double', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  const chats = frame.getByRole('complementary', { name: 'Your chats' });
  await chats.getByRole('link', { name: 'Bob Baker' }).waitFor();
  t.is(await chats.getByRole('listitem').filter({ hasText: 'Bob Baker' }).locator('.badge').textContent(), '1 unread');
  await chats.getByRole('button', { name: 'Favourite Launch' }).click();
  await chats.getByRole('list', { name: 'Favourites' }).getByRole('link', { name: 'Launch' }).waitFor();
  t.true(ok(await ann.get(`/chats/${launch}`)).favourite);
  await checkPage(t, page, frame, 'the chat list');

  // Bob opens the group by its link in his own browser; Ann opens it from her list and sees him there.
  const bobPage = await web.newPage(1280);
  await signIn(bobPage, web.origin, bob.email);
  // A message's link (a mention's notification, a search hit: `/chats/{id}/messages?after=…`) opens its chat.
  await bobPage.goto(`${web.origin}/app/chat/chats/${launch}/messages?after=0`);
  await (await appFrame(bobPage, 'chat-view')).getByRole('heading', { name: 'Launch', level: 1 }).waitFor();
  await bobPage.goto(`${web.origin}/app/chat/chats/${launch}`);
  const bobFrame = await appFrame(bobPage, 'chat-view');
  await bobFrame.getByRole('heading', { name: 'Launch', level: 1 }).waitFor();
  await chats.getByRole('link', { name: 'Launch' }).click();
  await page.waitForURL(`${web.origin}/app/chat/chats/${launch}`);
  await frame.getByText('Bob Baker (online)').waitFor();

  // A personal list: Ann makes "Work", puts the group in it, and shows that list alone.
  await chats.getByLabel('New list').fill('Work');
  await chats.getByRole('button', { name: 'Add list' }).click();
  await frame.getByRole('group', { name: 'Lists' }).getByRole('checkbox', { name: 'Work' }).check();
  await chats.getByLabel('Show').selectOption({ label: 'Work' });
  await chats.getByRole('link', { name: 'Bob Baker' }).waitFor({ state: 'detached' });
  await chats.getByRole('link', { name: 'Launch' }).waitFor();
  t.deepEqual(await chats.getByRole('link').allTextContents(), ['Launch']);
  t.deepEqual(ok(await ann.get('/chats/lists')).map((list: { name: string; chat_ids: string[] }) => [list.name, list.chat_ids]), [['Work', [launch]]]);
  await chats.getByLabel('Show').selectOption({ label: 'All chats' });

  // Bob types a mention with the autocomplete: Ann sees him typing, then the message naming her.
  const composer = bobFrame.getByRole('combobox', { name: 'Message Launch' });
  await composer.pressSequentially('@an');
  await frame.getByRole('status').filter({ hasText: 'Bob Baker is typing…' }).waitFor();
  t.deepEqual(await bobFrame.getByRole('listbox', { name: 'Mention someone' }).getByRole('option').allTextContents(), ['Ann Archer']);
  await composer.press('Enter');
  t.is(await composer.inputValue(), '@Ann Archer ');
  await composer.pressSequentially('ready for launch?');
  await composer.press('Enter');
  await messageOf(frame, 'ready for launch?').locator('.mention.me', { hasText: '@Ann Archer' }).waitFor();
  await frame.getByRole('status').filter({ hasText: 'is typing' }).waitFor({ state: 'detached' });
  const [sent] = ok(await ann.get(`/chats/${launch}/messages?per_page=1`));
  t.is(sent.body, `<@${ann.id}> ready for launch?`);
  t.deepEqual(sent.mention_mrns, [ann.mrn]);

  // Ann reacts; Bob sees it. Bob edits; Ann sees the new text, marked edited.
  await messageOf(frame, 'ready for launch?').getByRole('button', { name: '👍 reaction' }).click();
  await messageOf(bobFrame, 'ready for launch?').getByRole('button', { name: '👍 1 reaction' }).waitFor();
  await messageOf(bobFrame, 'ready for launch?').getByRole('button', { name: 'Edit' }).click();
  const edit = bobFrame.getByRole('combobox', { name: 'Edit message' });
  t.is(await edit.inputValue(), '@Ann Archer ready for launch?');
  await edit.fill('@Ann Archer ready for launch on Friday?');
  await edit.press('Enter');
  await messageOf(frame, 'ready for launch on Friday?').getByText('(edited)').waitFor();
  t.is(await messageOf(frame, 'ready for launch on Friday?').getByRole('button', { name: '👍 1 reaction' }).getAttribute('aria-pressed'), 'true', 'the edit keeps the reaction');

  // Ann replies in a thread; Bob sees the reply count and opens the thread.
  await messageOf(frame, 'on Friday?').getByRole('button', { name: 'Reply in thread' }).click();
  const reply = frame.getByRole('combobox', { name: 'Reply in thread' });
  await reply.fill('Yes, all set');
  await reply.press('Enter');
  await frame.getByRole('list', { name: 'Replies' }).getByText('Yes, all set').waitFor();
  await messageOf(bobFrame, 'on Friday?').getByRole('button', { name: '1 reply' }).click();
  await bobFrame.getByRole('list', { name: 'Replies' }).getByText('Yes, all set').waitFor();
  await checkPage(t, bobPage, bobFrame, "Bob's chat with a thread open");

  // Bob sends a slip and deletes it: Ann sees the tombstone.
  await composer.fill('wrong chat, sorry');
  await composer.press('Enter');
  await messageOf(frame, 'wrong chat, sorry').waitFor();
  await messageOf(bobFrame, 'wrong chat, sorry').getByRole('button', { name: 'Delete' }).click();
  await bobPage.getByRole('button', { name: 'Delete', exact: true }).click();
  await frame.locator('ol.messages .tombstone').waitFor();
  t.deepEqual(await shown(frame), ['@Ann Archer ready for launch on Friday?', 'This message was deleted.']);
  await frame.getByRole('button', { name: 'Close thread' }).click();

  // A message in the direct chat counts unread on Ann's list while she is in the group; opening it reads it.
  ok(await bob.post(`/chats/${direct}/messages`, { body: 'Or one o’clock?' }));
  await chats.getByRole('listitem').filter({ hasText: 'Bob Baker' }).locator('.badge', { hasText: '2 unread' }).waitFor();
  await checkPage(t, page, frame, 'the group, live');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}chat-1280.png`);
  await chats.getByRole('link', { name: 'Bob Baker' }).click();
  await frame.getByRole('listitem').filter({ hasText: 'New messages' }).waitFor();
  await chats.getByRole('listitem').filter({ hasText: 'Bob Baker' }).locator('.badge').waitFor({ state: 'detached' });
  t.is(ok(await ann.get(`/chats/${direct}`)).unread_count, 0);
  await chats.getByRole('link', { name: 'Launch' }).click();
  await messageOf(frame, 'on Friday?').waitFor();

  // The server closes every live socket (as a restart does); Bob posts twice meanwhile. Ann's view
  // reconnects by itself, resumes from the last event it saw, and shows each message once.
  const hub = web.world.platform.runtime.server.plugins.live.hub;
  t.true(hub.size >= 2, 'both pages hold a live socket');
  await hub.stop();
  t.is(hub.size, 0);
  ok(await bob.post(`/chats/${launch}/messages`, { body: 'Posted while you were away' }));
  ok(await bob.post(`/chats/${launch}/messages`, { body: 'And once more' }));
  await messageOf(frame, 'And once more').waitFor({ timeout: 15_000 });
  t.true(hub.size >= 1, 'the page opened a new socket');
  ok(await bob.post(`/chats/${launch}/messages`, { body: 'Live again' }));
  await messageOf(frame, 'Live again').waitFor();
  t.deepEqual(await shown(frame), await stored(launch));
  t.deepEqual(await shown(frame), ['@Ann Archer ready for launch on Friday?', 'This message was deleted.', 'Posted while you were away', 'And once more', 'Live again']);

  // Ann shares a file from her computer: the bytes go to the chat's uploads, the message names it, Bob sees it.
  await frame.getByLabel('Share a file').setInputFiles({ name: 'run-sheet.txt', mimeType: 'text/plain', buffer: Buffer.from('09:00 doors\n10:00 keynote\n') });
  await messageOf(bobFrame, 'run-sheet.txt').getByText('📎 run-sheet.txt').waitFor();
  const [shared] = ok(await bob.get(`/chats/${launch}/messages?per_page=1`));
  t.like(shared, { body: '', sender_mrn: ann.mrn, file: { filename: 'run-sheet.txt', content_type: 'text/plain', size_bytes: 26 } });
  await bobPage.context().close();
  await page.context().close();
});

test.serial('at 375 px: the list, then the open chat alone with the way back; a channel from New chat', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  const chats = frame.getByRole('complementary', { name: 'Your chats' });
  await chats.getByRole('link', { name: 'Launch' }).click();
  await messageOf(frame, 'Live again').waitFor();
  t.false(await chats.isVisible());
  await checkPage(t, page, frame, 'a chat at 375 px');
  await saveScreenshot(page, `${IMAGES}chat-375.png`);
  await frame.getByRole('link', { name: '← All chats' }).click();
  await chats.getByRole('link', { name: 'Launch' }).waitFor();
  await checkPage(t, page, frame, 'the list at 375 px');

  // A channel started from New chat opens at once, and its name is refused a second time.
  await frame.getByRole('link', { name: 'New chat' }).click();
  await frame.getByLabel('Channel name').fill('announcements');
  await checkPage(t, page, frame, 'New chat at 375 px');
  await frame.getByRole('button', { name: 'Create channel' }).click();
  await frame.getByRole('heading', { name: '#announcements', level: 1 }).waitFor();
  await frame.getByRole('link', { name: 'New chat' }).click();
  await frame.getByLabel('Channel name').fill('Announcements');
  await frame.getByRole('button', { name: 'Create channel' }).click();
  await frame.getByRole('alert').getByText('name: a channel named Announcements already exists').waitFor();
  t.deepEqual((ok(await ann.get('/chats?type=channel')) as Array<{ name: string }>).map((chat) => chat.name), ['announcements']);
  await page.context().close();
});
