/**
 * The Mail app's webmail in Chromium, through the real routes and the real SMTP path (the relay is
 * the app's own listener, so mail between hosted mailboxes leaves over SMTP and comes back in).
 * Ann writes to Bob's hosted mailbox: her default signature is in the text from the start, the
 * draft is saved as she types (the drafts route), Send sends it. Bob opens Mail from the launcher
 * and finds it in his inbox, bold and labelled unread; opening it reads it, and the list toggles it
 * unread and read again. Ann blocks a sender in her settings. Bob finds an HTML newsletter with
 * the search box and reads it sanitised; Ann attaches a file as she writes and Bob downloads it.
 * At 1280 px and 375 px, axe-clean in
 * the shell and the frame, no Content-Security-Policy violation, nothing wider than the window.
 * The screenshots are the ones docs/apps/mail.md shows.
 */
import test from 'ava';
import { ok, type TestMember } from '@wpk/testing';
import { checkPage, dismissToasts, saveScreenshot, type Frame, type WorldBrowser } from '@wpk/testing/browser';
import { IMAGES, KEYS, browseMail } from './helpers/browser.js';
import type { World } from './helpers/world.js';

let web: WorldBrowser<World>;
let ann: TestMember;
let bob: TestMember;
let annBox: { id: string; address: string };
let bobBox: { id: string; address: string };

test.before(async () => {
  web = await browseMail();
  const { world } = web;
  ann = await world.member(KEYS, { name: 'Ann Sender' });
  bob = await world.member(KEYS, { name: 'Bob Reader' });
  const domain = await world.hostedDomain('acme.test');
  annBox = await world.mailbox(domain, 'ann', ann);
  bobBox = await world.mailbox(domain, 'bob', bob);
  const signature = ok(await ann.post(`/mail/accounts/${annBox.id}/signatures`, { name: 'Work', text: 'Ann Sender\nSales, Acme' }));
  ok(await ann.patch(`/mail/accounts/${annBox.id}`, { signature_id: signature.id }));
});

test.after.always(() => web?.close());

/** The row of the inbox's conversation with this subject. */
const row = (frame: Frame, subject: string) => frame.getByRole('list', { name: 'Messages in Inbox' }).getByRole('listitem').filter({ hasText: subject });

test.serial('at 1280 px: Ann writes to Bob with her signature, the draft saved as she types, and sends it; Bob reads it in his inbox (unread, then read), toggles it, and replies; Ann reads the conversation', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByText('No message in Inbox.').waitFor();
  t.is(await frame.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: 'Inbox' }).getAttribute('aria-current'), 'page');
  await checkPage(t, page, frame, "Ann's empty inbox");

  await frame.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: 'Compose' }).click();
  const form = frame.getByRole('form', { name: 'Compose' });
  const text = form.getByLabel('Message');
  await text.waitFor();
  // Her default signature is in the text before she types.
  t.is(await text.inputValue(), '\n\n-- \nAnn Sender\nSales, Acme');
  await form.getByLabel('To').fill(`Bob <${bobBox.address}>`);
  await form.getByLabel('Subject').fill('Quarterly plan');
  await text.focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('See you Monday.');
  await form.getByRole('status').getByText('Draft saved').waitFor();
  // The draft is on the server, as typed.
  const [draft] = ok(await ann.get(`/mail/drafts?account_id=${annBox.id}`));
  t.like(draft, { account_id: annBox.id, subject: 'Quarterly plan', text: 'See you Monday.\n\n-- \nAnn Sender\nSales, Acme', to: [{ address: bobBox.address, name: 'Bob' }] });
  await checkPage(t, page, frame, 'the compose form');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}mail-compose-1280.png`);

  await form.getByRole('button', { name: 'Send' }).click();
  await page.waitForURL(new RegExp(`/app/mail/accounts/${annBox.id}/sent$`));
  t.deepEqual(ok(await ann.get(`/mail/drafts?account_id=${annBox.id}`)), []);
  // The queue hands it to the relay (the listener), which files it in Bob's inbox.
  t.is(await web.world.flush(), 1);
  const [sent] = ok(await ann.get(`/mail/accounts/${annBox.id}/messages?folder=sent`));
  t.like(sent, { subject: 'Quarterly plan', delivery_status: 'sent', text: 'See you Monday.\n\n-- \nAnn Sender\nSales, Acme' });
  await page.context().close();

  // Bob opens Mail from the launcher: the message is in his inbox, unread.
  const reader = await web.openApp(1280, { email: bob.email });
  const unread = row(reader.frame, 'Quarterly plan');
  await unread.getByText('Unread:').waitFor();
  t.is(await unread.evaluate((element) => (globalThis as unknown as { getComputedStyle(target: unknown): { fontWeight: string } }).getComputedStyle(element).fontWeight), '600'); // --wpk-font-weight-bold
  t.regex((await unread.innerText()).replace(/\s+/g, ' '), /ann .*Quarterly plan See you Monday\./i);
  const [received] = ok(await bob.get(`/mail/accounts/${bobBox.id}/messages?folder=inbox`));
  t.like(received, { subject: 'Quarterly plan', seen: false, from: { address: annBox.address } });
  await checkPage(t, reader.page, reader.frame, "Bob's inbox with the unread message");
  await dismissToasts(reader.page);
  await saveScreenshot(reader.page, `${IMAGES}mail-inbox-1280.png`);

  await unread.getByRole('link', { name: 'Quarterly plan' }).click();
  const conversation = reader.frame.getByRole('region', { name: 'Conversation' });
  await conversation.getByText('See you Monday.', { exact: false }).waitFor();
  t.regex(await conversation.getByRole('article').innerText(), /Sales, Acme/);
  t.is(ok(await bob.get(`/mail/accounts/${bobBox.id}/messages/${received.id}`)).seen, true);
  await checkPage(t, reader.page, reader.frame, 'the conversation');
  await dismissToasts(reader.page);
  await saveScreenshot(reader.page, `${IMAGES}mail-thread-1280.png`);

  // Back in the inbox it reads as read; the list marks it unread, then read again.
  await reader.frame.getByRole('link', { name: 'Back to Inbox' }).click();
  const read = row(reader.frame, 'Quarterly plan');
  await read.getByRole('button', { name: 'Mark as unread: Quarterly plan' }).click();
  await read.getByText('Unread:').waitFor();
  t.is(ok(await bob.get(`/mail/accounts/${bobBox.id}/messages/${received.id}`)).seen, false);
  await read.getByRole('button', { name: 'Mark as read: Quarterly plan' }).click();
  await read.getByRole('button', { name: 'Mark as unread: Quarterly plan' }).waitFor();
  t.is(await read.getByText('Unread:').count(), 0);
  t.is(ok(await bob.get(`/mail/accounts/${bobBox.id}/messages/${received.id}`)).seen, true);

  // Bob replies: to Ann, "Re:", in reply to her message, her text quoted under his.
  await read.getByRole('link', { name: 'Quarterly plan' }).click();
  await reader.frame.getByRole('link', { name: 'Reply' }).click();
  const reply = reader.frame.getByRole('form', { name: 'Compose' });
  await reply.getByLabel('Subject').waitFor();
  t.is(await reply.getByLabel('To').inputValue(), `ann <${annBox.address}>`);
  t.is(await reply.getByLabel('Subject').inputValue(), 'Re: Quarterly plan');
  t.regex(await reply.getByLabel('Message').inputValue(), /wrote:\n> See you Monday\.\n> \n> -- \n> Ann Sender\n> Sales, Acme$/);
  await reply.getByLabel('Message').focus();
  await reader.page.keyboard.press('Control+Home');
  await reader.page.keyboard.type('Monday it is.');
  await reply.getByRole('button', { name: 'Send' }).click();
  await reader.page.waitForURL(new RegExp(`/app/mail/accounts/${bobBox.id}/sent$`));
  t.is(await web.world.flush(), 1);
  await reader.page.context().close();

  // Ann's inbox has the answer; it opens as one conversation with what she sent.
  const again = await web.openApp(1280, { email: ann.email });
  const answer = row(again.frame, 'Re: Quarterly plan');
  await answer.getByText('Unread:').waitFor();
  const [inbox] = ok(await ann.get(`/mail/accounts/${annBox.id}/messages?folder=inbox`));
  t.like(inbox, { subject: 'Re: Quarterly plan', in_reply_to: sent.message_id_header, seen: false });
  await answer.getByRole('link', { name: 'Re: Quarterly plan' }).click();
  const both = again.frame.getByRole('region', { name: 'Conversation' }).getByRole('article');
  await both.nth(1).getByText('Monday it is.', { exact: false }).waitFor();
  t.is(await both.count(), 2);
  t.regex(await both.nth(0).innerText(), /^ann <ann@acme\.test>\nTo Bob <bob@acme\.test>\nSent · /);
  await checkPage(t, again.page, again.frame, 'the conversation with the reply');
  await again.page.context().close();
});

test.serial('at 1280 px: Ann blocks a sender in her settings; a bad address is refused in the API\'s words', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('navigation', { name: 'Mail', exact: true }).getByRole('link', { name: 'Settings' }).click();
  const signatures = frame.getByRole('list', { name: 'Signatures' });
  await signatures.getByText('Work (default)').waitFor();
  const block = frame.getByRole('form', { name: 'Block a sender' });
  await block.getByLabel('Address, or @domain for a whole domain').fill('not an address');
  await block.getByRole('button', { name: 'Block' }).click();
  await block.getByRole('alert').getByText('address must be an address (name@example.com) or a domain (@example.com)').waitFor();
  t.deepEqual(ok(await ann.get(`/mail/accounts/${annBox.id}/blocked-senders`)), []);
  await block.getByLabel('Address, or @domain for a whole domain').fill('@spam.example');
  await block.getByRole('button', { name: 'Block' }).click();
  await frame.getByRole('list', { name: 'Blocked senders' }).getByText('@spam.example', { exact: true }).waitFor();
  t.deepEqual(ok(await ann.get(`/mail/accounts/${annBox.id}/blocked-senders`)).map((blocked: { address: string }) => blocked.address), ['@spam.example']);
  await checkPage(t, page, frame, 'the settings');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}mail-settings-1280.png`);
  await page.context().close();
});

test.serial('at 375 px: Bob reads his inbox and the conversation on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: bob.email });
  const message = row(frame, 'Quarterly plan');
  await message.getByRole('button', { name: 'Mark as unread: Quarterly plan' }).waitFor();
  await checkPage(t, page, frame, 'the inbox at 375 px');
  await saveScreenshot(page, `${IMAGES}mail-inbox-375.png`);
  await message.getByRole('link', { name: 'Quarterly plan' }).click();
  // His reply (in Sent) is part of the conversation, after Ann's message.
  const articles = frame.getByRole('region', { name: 'Conversation' }).getByRole('article');
  await articles.nth(1).getByText('Monday it is.', { exact: false }).waitFor();
  t.regex(await articles.nth(0).innerText(), /See you Monday\./);
  await checkPage(t, page, frame, 'the conversation at 375 px');
  await saveScreenshot(page, `${IMAGES}mail-thread-375.png`);
  await page.context().close();
});

/** An HTML newsletter with everything a sanitiser must take out: a script, a handler, a javascript: link, a remote picture. */
const NEWSLETTER = '<style>.big { font-size: 20px; } :host { position: absolute; inset: 0; z-index: 9999; }</style><p class="big">Hello <b>Bob</b></p>'
  + '<img src="https://tracker.example/p.gif" alt="pixel"><p><a href="javascript:alert(1)">bad link</a> <a href="https://example.com/">good link</a></p>'
  + '<script>window.pwned = 1</script><p onclick="window.pwned = 2" style="color: rgb(0, 0, 128)">tap</p>';

test.serial('at 1280 and 375 px: Bob finds Ann\'s HTML newsletter with the search box and reads it sanitised (no script, no handler, no remote picture)', async (t) => {
  ok(await ann.post(`/mail/accounts/${annBox.id}/messages`, { to: [{ address: bobBox.address }], subject: 'Newsletter', text: 'Hello Bob (plain part)', html: NEWSLETTER }));
  t.is(await web.world.flush(), 1);
  const [arrived] = ok(await bob.get(`/mail/accounts/${bobBox.id}/messages?q=newsletter`));
  t.regex(arrived.html, /<script>/);
  // Each message of Bob's inbox is a conversation of its own.
  const inbox = ok(await bob.get(`/mail/accounts/${bobBox.id}/messages?folder=inbox`)).length;

  const { page, frame } = await web.openApp(1280, { email: bob.email });
  const messages = frame.getByRole('list', { name: 'Messages in Inbox' }).getByRole('listitem');
  await row(frame, 'Newsletter').waitFor();
  t.is(await messages.count(), inbox);
  const search = frame.getByRole('search', { name: 'Search Inbox' });
  await search.getByLabel('Search Inbox by subject or sender').fill('newsletter');
  await search.getByRole('button', { name: 'Search', exact: true }).click();
  await frame.getByRole('status').getByText('Conversations matching “newsletter”').waitFor();
  t.is(await messages.count(), 1);
  await checkPage(t, page, frame, 'a search of the inbox');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}mail-search-1280.png`);
  await search.getByLabel('Search Inbox by subject or sender').fill('nothing like it');
  await search.getByRole('button', { name: 'Search', exact: true }).click();
  await frame.getByText('No message in Inbox matches “nothing like it”.').waitFor();
  await search.getByRole('button', { name: 'Clear search' }).click();
  await row(frame, 'Newsletter').waitFor();
  t.is(await messages.count(), inbox);

  await row(frame, 'Newsletter').getByRole('link', { name: 'Newsletter' }).click();
  const body = frame.getByRole('region', { name: 'Conversation' }).locator('mail-html-body');
  await body.getByText('Hello Bob').waitFor();
  t.is(await body.locator('b').innerText(), 'Bob');
  t.is(await body.locator('.big').evaluate((element) => (globalThis as unknown as { getComputedStyle(target: unknown): { fontSize: string } }).getComputedStyle(element).fontSize), '20px');
  t.is(await body.getByText('tap').evaluate((element) => (element as unknown as { style: { color: string } }).style.color), 'rgb(0, 0, 128)');
  t.is(await body.locator('script').count(), 0);
  // A :host rule would style the message's box from inside (here: laid over the page); it matches nothing.
  t.is(await body.locator('.content').evaluate((element) => (globalThis as unknown as { getComputedStyle(target: unknown): { position: string } }).getComputedStyle(element).position), 'static');
  t.is(await body.locator('[onclick]').count(), 0);
  t.is(await body.getByRole('link', { name: 'bad link' }).count(), 0);
  t.is(await body.getByText('bad link').evaluate((element) => (element as unknown as { hasAttribute(name: string): boolean }).hasAttribute('href')), false);
  t.like(await body.getByRole('link', { name: 'good link' }).evaluate((element) => ({ href: element.getAttribute('href'), target: element.getAttribute('target'), rel: element.getAttribute('rel') })), { href: 'https://example.com/', target: '_blank', rel: 'noopener noreferrer' });
  t.is(await body.locator('img').getAttribute('src'), null);
  await body.getByText('1 remote picture was not loaded').waitFor();
  await body.getByText('tap').click();
  t.is(await frame.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned), undefined);
  await checkPage(t, page, frame, 'an HTML message');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}mail-html-1280.png`);
  await page.context().close();

  const phone = await web.openApp(375, { email: bob.email });
  await row(phone.frame, 'Newsletter').getByRole('link', { name: 'Newsletter' }).click();
  await phone.frame.locator('mail-html-body').getByText('Hello Bob').waitFor();
  await checkPage(t, phone.page, phone.frame, 'an HTML message at 375 px');
  await phone.page.context().close();
});

test.serial('at 1280 and 375 px: Ann attaches a file as she writes (the draft names it) and sends it; Bob downloads it from the conversation', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: 'Compose' }).click();
  const form = frame.getByRole('form', { name: 'Compose' });
  await form.getByLabel('To').fill(bobBox.address);
  await form.getByLabel('Subject').fill('Run sheet');
  await form.getByLabel('Attach files').setInputFiles({ name: 'run-sheet.txt', mimeType: 'text/plain', buffer: Buffer.from('09:00 doors\n') });
  await form.getByRole('list', { name: 'Attachments' }).getByText('run-sheet.txt', { exact: false }).waitFor();
  await form.getByRole('status').getByText('Draft saved').waitFor();
  const [draft] = ok(await ann.get(`/mail/drafts?account_id=${annBox.id}`));
  t.like(draft, { subject: 'Run sheet', attachments: [{ filename: 'run-sheet.txt', content_type: 'text/plain', size_bytes: 12 }] });
  await checkPage(t, page, frame, 'the compose form with an attachment');
  await form.getByRole('button', { name: 'Send' }).click();
  await page.waitForURL(new RegExp(`/app/mail/accounts/${annBox.id}/sent$`));
  t.is(await web.world.flush(), 1);
  await page.context().close();

  const reader = await web.openApp(1280, { email: bob.email });
  await row(reader.frame, 'Run sheet').getByRole('link', { name: 'Run sheet' }).click();
  const files = reader.frame.getByRole('region', { name: 'Conversation' }).getByRole('list', { name: 'Attachments' });
  await files.getByText('run-sheet.txt', { exact: false }).waitFor();
  const [download] = await Promise.all([reader.page.waitForEvent('download'), files.getByRole('button', { name: 'Download run-sheet.txt' }).click()]);
  t.is(download.suggestedFilename(), 'run-sheet.txt');
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  t.is(Buffer.concat(chunks).toString(), '09:00 doors\n');
  await checkPage(t, reader.page, reader.frame, 'a message with an attachment');
  await dismissToasts(reader.page);
  await saveScreenshot(reader.page, `${IMAGES}mail-attachment-1280.png`);
  await reader.page.context().close();

  const phone = await web.openApp(375, { email: bob.email });
  await row(phone.frame, 'Run sheet').getByRole('link', { name: 'Run sheet' }).click();
  await phone.frame.getByRole('button', { name: 'Download run-sheet.txt' }).waitFor();
  await checkPage(t, phone.page, phone.frame, 'a message with an attachment at 375 px');
  await phone.page.context().close();
});
