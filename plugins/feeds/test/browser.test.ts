/**
 * The Feeds app's front-end in Chromium, through the real routes: the owner opens Feeds from the
 * launcher, goes to a channel, posts an announcement that members must acknowledge, comments on
 * it and acknowledges it, writes a post with bold text and a mention in the rich text editor; then
 * the timeline and the composer on a phone. At 1280 px and at 375 px, axe-clean (no
 * serious or critical violation) in the shell and in the frame, no Content-Security-Policy
 * violation, nothing wider than the window. The screenshots are the ones docs/apps/feeds.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startWorld } from '@wpk/testing';
import { appFrame, browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

let web: WorldBrowser;

/** Saves one of the docs page's pictures (docs/apps/images/{name}). */
const shot = (page: Parameters<typeof saveScreenshot>[0], name: string) => saveScreenshot(page, fileURLToPath(new URL(`../../../docs/apps/images/${name}`, import.meta.url)));

test.before(async () => {
  // Workers is loaded (not installed) so that its core.workers.worker.hired, which a binding turns into cards, has its emitter on the bus.
  const started = startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, apps: [fileURLToPath(new URL('../../workers', import.meta.url))], firstParty: ['feeds', 'workers'] });
  web = await browseWorld(started, { link: 'Feeds', exact: true, slug: 'feeds', ready: 'feeds-timeline' });
});

test.after.always(() => web?.close());

const owner = () => web.world.owner;

test.serial('at 1280 px: post an announcement in a channel, comment on it and acknowledge it', async (t) => {
  const channel = (await owner().request('POST', '/feeds/channels', { name: 'All hands', kind: 'company', post_policy: 'admins' })).body.data;
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('heading', { name: 'Timeline', level: 1 }).waitFor();
  await checkPage(t, page, frame, 'the empty timeline');

  await frame.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Channels' }).click();
  await page.waitForURL(`${web.origin}/app/feeds/channels`);
  await frame.getByRole('table', { name: "The workspace's channels" }).getByRole('link', { name: 'All hands' }).click();
  await page.waitForURL(`${web.origin}/app/feeds/channels/${channel.id}`);
  await frame.getByLabel('Title').fill('New leave policy');
  // The text is written in the kit's rich text editor (loaded on demand with the screen).
  await frame.getByRole('textbox', { name: 'Text of the post' }).click();
  await page.keyboard.type('Please read the <new> policy.');
  await frame.getByText('Members must acknowledge it').click();
  await frame.getByRole('button', { name: 'Publish' }).click();
  await page.waitForURL(/\/app\/feeds\/posts\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'New leave policy', level: 1 }).waitFor();
  await frame.getByText('Please read the <new> policy.').waitFor();

  await frame.getByRole('textbox', { name: 'Comment' }).click();
  await page.keyboard.type('Thanks, read it.');
  await frame.getByRole('button', { name: 'Comment', exact: true }).click();
  await frame.getByRole('heading', { name: 'Comments (1)' }).waitFor();
  t.is((await frame.getByRole('textbox', { name: 'Comment' }).textContent())?.trim(), '', 'the editor is emptied once the comment is sent');
  await frame.getByRole('button', { name: 'Acknowledge' }).click();
  await frame.getByText('You acknowledged this announcement.').waitFor();
  await checkPage(t, page, frame, 'a post with a comment, acknowledged');
  await dismissToasts(page);
  await shot(page, 'feeds-post-1280.png');

  const post = (await owner().request('GET', `/feeds/channels/${channel.id}/posts`)).body.data[0];
  t.like(post, { title: 'New leave policy', body: '<p>Please read the &lt;new&gt; policy.</p>', status: 'published', requires_acknowledgement: true, acknowledged: true, comment_count: 1 });
  t.deepEqual((await owner().request('GET', `/feeds/posts/${post.id}/acknowledgements`)).body.data.acknowledged.map((ack: { member_id: string }) => ack.member_id), [owner().id]);

  // The post's link as a mention's notification and a search hit name it (`/feeds/posts/{id}`) opens it.
  await page.goto(`${web.origin}/app/feeds/feeds/posts/${post.id}`);
  await (await appFrame(page, 'feeds-post')).getByRole('heading', { name: 'New leave policy', level: 1 }).waitFor();
  await page.context().close();
});

test.serial('at 1280 px: write a post with bold text and a mention through the rich text editor, carrying a poll; it renders both; vote, and change the vote', async (t) => {
  const channel = (await owner().request('POST', '/feeds/channels', { name: 'Social', kind: 'topic' })).body.data;
  const cook = await web.world.member(['feeds.posts.read'], { name: 'Cook Mendes' });
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Channels' }).click();
  await frame.getByRole('table', { name: "The workspace's channels" }).getByRole('link', { name: 'Social' }).click();
  await page.waitForURL(`${web.origin}/app/feeds/channels/${channel.id}`);
  await frame.getByLabel('Title').fill('Team lunch');
  const text = frame.getByRole('textbox', { name: 'Text of the post' });
  await text.click();
  await page.keyboard.type('Where shall we go? ');
  await frame.getByRole('button', { name: 'Bold', exact: true }).click();
  await page.keyboard.type('Noodles');
  await frame.getByRole('button', { name: 'Bold', pressed: true }).click();
  await page.keyboard.type(' or ask ');
  // A mention through the shell's member picker, inserted at the cursor as the editor's mention node.
  await frame.getByRole('button', { name: '@ Mention' }).click();
  await page.getByRole('dialog', { name: 'Mention someone' }).waitFor();
  const picker = page.locator('wpk-member-picker-dialog');
  await picker.getByLabel(/Cook Mendes/).check();
  await picker.getByRole('button', { name: 'Choose' }).click();
  await text.locator('span[data-type="mention"]', { hasText: '@Cook Mendes' }).waitFor();
  await checkPage(t, page, frame, 'the composer with bold text and a mention');
  await frame.getByLabel('Poll options').fill('Noodles\nPizza\n\nSalad');
  await frame.getByLabel('Poll closes in (days)').fill('3');
  await frame.getByRole('button', { name: 'Publish' }).click();
  await page.waitForURL(/\/app\/feeds\/posts\/[0-9a-f-]+$/);
  const poll = frame.getByRole('region', { name: 'Poll' });
  await poll.getByText('0 votes').waitFor();
  const shown = frame.locator('feeds-post .text').first();
  t.is(await shown.locator('strong').textContent(), 'Noodles', 'the post shows the bold text bold');
  t.is(await shown.locator('.mention').getAttribute('data-id'), cook.id);
  t.is(await shown.locator('.mention').textContent(), '@Cook Mendes');
  await poll.getByRole('button', { name: 'Pizza' }).click();
  await poll.getByText('1 vote', { exact: false }).waitFor();
  await poll.getByRole('button', { name: 'Pizza', pressed: true }).waitFor();
  await poll.getByRole('button', { name: 'Salad' }).click();
  await poll.getByRole('button', { name: 'Salad', pressed: true }).waitFor();
  await checkPage(t, page, frame, 'a post with a poll, voted');
  await dismissToasts(page);
  await shot(page, 'feeds-poll-1280.png');

  const post = (await owner().request('GET', `/feeds/channels/${channel.id}/posts`)).body.data[0];
  t.is(post.body, `<p>Where shall we go? <strong>Noodles</strong> or ask <span data-type="mention" data-id="${cook.id}">@Cook Mendes</span> </p>`);
  t.deepEqual([post.title, post.poll.options, post.poll.my_vote, post.poll.hide_results], ['Team lunch', [{ index: 0, label: 'Noodles', votes: 0 }, { index: 1, label: 'Pizza', votes: 0 }, { index: 2, label: 'Salad', votes: 1 }], 2, false]);
  const days = (new Date(post.poll.closes_at).getTime() - new Date(post.published_at).getTime()) / 86_400_000;
  t.true(days > 2.99 && days <= 3, `closes in 3 days (${days})`);
  await page.context().close();
});

test.serial('at 1280 px: bind hires to a channel with the fields its cards show; a hire becomes a card', async (t) => {
  const channel = (await owner().request('POST', '/feeds/channels', { name: 'Newcomers', kind: 'topic' })).body.data;
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Event cards' }).click();
  await page.waitForURL(`${web.origin}/app/feeds/cards`);
  await frame.getByText('No binding yet.').waitFor();
  await frame.getByLabel('Event', { exact: true }).selectOption({ label: 'A worker was hired (Workers)' });
  await frame.getByLabel('Channel', { exact: true }).selectOption({ label: 'Newcomers' });
  await frame.getByRole('checkbox', { name: 'name' }).check();
  await frame.getByLabel('Title', { exact: true }).fill('Welcome {name}');
  await frame.getByLabel('Text', { exact: true }).fill('Please welcome {name}, our new {title}!');
  await frame.getByRole('button', { name: 'Bind' }).click();
  // {title} was not chosen: the API's refusal is shown on the form, nothing is bound.
  await frame.getByRole('alert').getByText('template: {title} is not among the fields the binding shows (name)').waitFor();
  await frame.getByRole('checkbox', { name: 'title' }).check();
  await frame.getByRole('button', { name: 'Bind' }).click();
  await frame.getByText('→ Newcomers').waitFor();
  await checkPage(t, page, frame, 'the event cards screen with a binding');
  await dismissToasts(page);
  await shot(page, 'feeds-cards-1280.png');

  const workerId = crypto.randomUUID();
  await web.world.deliver('core.workers.worker.hired', { worker_id: workerId, mrn: `mrn:workers:worker:${workerId}`, name: 'Nia Okafor', title: 'Engineer', work_email: 'nia@example.com', status: 'onboarding', revision: 1 });
  const cards = (await owner().request('GET', `/feeds/channels/${channel.id}/posts`)).body.data;
  t.deepEqual(cards.map((post: { title: string; body: string }) => [post.title, post.body]), [['Welcome Nia Okafor', '<p>Please welcome Nia Okafor, our new Engineer!</p>']]);
  await page.context().close();
});

test.serial('at 375 px: typing @ and the start of a name lists the joined members who match; the keyboard or a click inserts the mention', async (t) => {
  const channel = (await owner().request('POST', '/feeds/channels', { name: 'Kitchen', kind: 'topic' })).body.data;
  const post = (await owner().request('POST', `/feeds/channels/${channel.id}/posts`, { title: 'Coffee machine', body: '<p>It is fixed.</p>' })).body.data;
  const maria = await web.world.member(['feeds.posts.read'], { name: 'Maria Costa' });
  const mario = await web.world.member(['feeds.posts.read'], { name: 'Mario Rossi' });
  // Invited, not joined: never offered.
  t.is((await owner().request('POST', '/invitations', { email: 'marlene@acme.test' })).status, 200);
  const { page, frame } = await web.openApp(375);
  await frame.getByRole('link', { name: 'Coffee machine' }).click();
  await page.waitForURL(`${web.origin}/app/feeds/posts/${post.id}`);
  const comment = frame.getByRole('textbox', { name: 'Comment' });
  await comment.click();
  const list = frame.getByRole('listbox', { name: 'Members to mention' });
  // The list follows each key typed, so it is read once it has caught up with the whole query
  // (or after 5 s, when the assertion shows what it still offers).
  const offered = async (expected: string[]) => {
    await list.waitFor();
    const deadline = Date.now() + 5000;
    for (;;) {
      const names = await list.getByRole('option').allTextContents();
      if (JSON.stringify(names) === JSON.stringify(expected) || Date.now() > deadline) return names;
      await page.waitForTimeout(50);
    }
  };
  await page.keyboard.type('Thanks @mar');
  t.deepEqual(await offered(['Maria Costa', 'Mario Rossi']), ['Maria Costa', 'Mario Rossi']);
  t.is(await comment.getAttribute('aria-activedescendant'), await list.getByRole('option', { name: 'Maria Costa' }).getAttribute('id'));
  await checkPage(t, page, frame, 'the mention list open at 375 px');
  await shot(page, 'feeds-mention-375.png');
  await page.keyboard.press('ArrowDown');
  await list.getByRole('option', { name: 'Mario Rossi', selected: true }).waitFor();
  await page.keyboard.press('Enter');
  await list.waitFor({ state: 'detached' });
  t.is(await comment.getAttribute('aria-activedescendant'), null);
  // A word of the name, not only its start; Escape closes the list and it stays closed for this @.
  await page.keyboard.type('and @cos');
  t.deepEqual(await offered(['Maria Costa']), ['Maria Costa']);
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'detached' });
  await page.keyboard.type('ta');
  t.is(await list.count(), 0);
  // A click chooses too.
  await page.keyboard.type(' @Maria C');
  await list.getByRole('option', { name: 'Maria Costa' }).click();
  await list.waitFor({ state: 'detached' });
  await frame.getByRole('button', { name: 'Comment', exact: true }).click();
  await frame.getByRole('heading', { name: 'Comments (1)' }).waitFor();
  const [sent] = (await owner().request('GET', `/feeds/posts/${post.id}/comments`)).body.data;
  t.is(sent.body, `<p>Thanks <span data-type="mention" data-id="${mario.id}">@Mario Rossi</span> and @costa <span data-type="mention" data-id="${maria.id}">@Maria Costa</span> </p>`);
  await page.context().close();
});

test.serial('at 375 px: the timeline on a phone', async (t) => {
  const { page, frame } = await web.openApp(375);
  await frame.getByRole('heading', { name: 'Timeline', level: 1 }).waitFor();
  await frame.getByRole('link', { name: 'New leave policy' }).waitFor();
  await checkPage(t, page, frame, 'the timeline at 375 px');
  await shot(page, 'feeds-timeline-375.png');
  // The composer's rich text editor on a phone.
  await frame.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Channels' }).click();
  await frame.getByRole('table', { name: "The workspace's channels" }).getByRole('link', { name: 'Social' }).click();
  await frame.getByRole('textbox', { name: 'Text of the post' }).click();
  await page.keyboard.type('On a phone');
  await frame.getByRole('button', { name: 'Bold', exact: true }).waitFor();
  await checkPage(t, page, frame, 'the composer at 375 px');
  await page.context().close();
});
