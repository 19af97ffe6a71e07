import test from 'ava';
import { fileURLToPath } from 'node:url';
import { checkMatrixRows, ok, startWorld, type TestMember, type World } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import app from '../src/index.js';

const READER_WORKER = crypto.randomUUID();
const MODERATOR_WORKER = crypto.randomUUID();
/** An id no record has. */
const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const DEPARTMENT = 'mrn:workers:department:11111111-2222-4333-8444-555555555555';
let world: World;
let reader: TestMember;
let moderator: TestMember;

/** What a plain member holds: read, write posts, comment, react, acknowledge. */
const MEMBER_KEYS = ['feeds.bindings.read', 'feeds.channels.read', 'feeds.posts.read', 'feeds.posts.create', 'feeds.posts.edit', 'feeds.posts.delete', 'feeds.comments.create', 'feeds.comments.delete', 'feeds.reactions.edit', 'feeds.votes.create', 'feeds.acknowledgements.create', 'feeds.acknowledgements.read'];

test.before(async () => {
  // Workers is loaded (not installed) so that its core.workers.worker.hired, which a binding turns into cards, has its emitter on the bus.
  world = await startWorld({ app, subdomain: 'feeds', apps: [fileURLToPath(new URL('../../workers', import.meta.url))], firstParty: ['feeds', 'workers'] });
  reader = await world.member(MEMBER_KEYS);
  moderator = await world.member([...MEMBER_KEYS, 'feeds.posts.remove']);
});
test.after.always(() => world?.close());

test('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});

/** Row count of one of the app's tables in the test workspace. */
const rows = async (table: string) => (await world.platform.query<{ n: number }>(`SELECT count(*)::int AS n FROM app_feeds.${table} WHERE workspace_id = :id`, { id: world.workspace.id }))[0].n;

/** The app's own wake-up calls (delayed events to itself). */
const WAKE_UPS = ['core.feeds.post.scheduled', 'core.feeds.poll.expired'];

/** The app's events since the last take, without its own wake-up calls. */
const events = () => world.takeEvents().filter((event) => !WAKE_UPS.includes(event.action));

/** Sends each request and checks it is refused with the status and body given, then that nothing was written or emitted. */
async function refusals(t: import('ava').ExecutionContext, who: TestMember, table: string, cases: Array<[string, string, unknown, number, string, string?]>) {
  world.takeEvents();
  const before = await rows(table);
  for (const [method, path, body, status, error, field] of cases) {
    const reply = await who.request(method, path, body);
    t.is(reply.status, status, `${method} ${path} ${JSON.stringify(body)}`);
    t.deepEqual(reply.body, field === undefined ? { error } : { error, field }, `${method} ${path} ${JSON.stringify(body)}`);
  }
  t.is(await rows(table), before);
  t.deepEqual(world.takeEvents(), []);
}

let counter = 0;
/** A fresh channel (everyone may post unless told). */
async function channel(fields: Record<string, unknown> = {}) {
  counter += 1;
  return ok(world.owner.request('POST', '/feeds/channels', { name: `Channel ${counter}`, kind: 'topic', ...fields }));
}

test.serial('channels: company, department (with its department_mrn) and topic; who may post; names unique ignoring case; a channel with posts is kept', async (t) => {
  const company = await ok(world.owner.request('POST', '/feeds/channels', { name: ' All hands ', kind: 'company', description: 'Everything', post_policy: 'admins' }));
  t.like(company, { name: 'All hands', kind: 'company', department_mrn: null, description: 'Everything', post_policy: 'admins', post_roles: [], created_by: world.owner.id });
  const department = await ok(world.owner.request('POST', '/feeds/channels', { name: 'Engineering', kind: 'department', department_mrn: DEPARTMENT, post_policy: 'roles', post_roles: ['admin', 'member', 'admin'] }));
  t.like(department, { kind: 'department', department_mrn: DEPARTMENT, post_policy: 'roles', post_roles: ['admin', 'member'] });

  await refusals(t, world.owner, 'channels', [
    ['POST', '/feeds/channels', { name: 'Ops', kind: 'department' }, 400, 'department_mrn: a department channel names its department (mrn:workers:department:{id})', 'department_mrn'],
    ['POST', '/feeds/channels', { name: 'Ops', kind: 'department', department_mrn: 'mrn:settings:location:x' }, 400, 'department_mrn: mrn:settings:location:x is no mrn:workers:department:{id}', 'department_mrn'],
    ['POST', '/feeds/channels', { name: 'Ops', kind: 'topic', department_mrn: DEPARTMENT }, 400, 'department_mrn: only a department channel names a department (this one is a topic channel)', 'department_mrn'],
    ['POST', '/feeds/channels', { name: 'Ops', kind: 'topic', post_policy: 'roles' }, 400, 'post_roles: a channel whose post_policy is roles lists at least one role', 'post_roles'],
    ['POST', '/feeds/channels', { name: 'Ops', kind: 'club' }, 400, 'kind must be one of [company, department, topic]', 'kind'],
    ['POST', '/feeds/channels', { name: 'all HANDS', kind: 'topic' }, 409, `Channel ${company.id} is already named All hands`],
    ['PATCH', `/feeds/channels/${department.id}`, { name: 'ALL hands' }, 409, `Channel ${company.id} is already named All hands`],
    ['PATCH', `/feeds/channels/${UNKNOWN}`, { name: 'X' }, 404, `Channel ${UNKNOWN} not found`],
  ]);

  const renamed = await ok(world.owner.request('PATCH', `/feeds/channels/${department.id}`, { kind: 'topic', department_mrn: null, post_policy: 'everyone' }));
  t.like(renamed, { kind: 'topic', department_mrn: null, post_policy: 'everyone', post_roles: [] });

  const listed = await world.owner.request('GET', '/feeds/channels?q=hands');
  t.is(listed.status, 200);
  t.deepEqual(listed.body.data.map((row: { id: string }) => row.id), [company.id]);

  await ok(world.owner.request('POST', `/feeds/channels/${company.id}/posts`, { body: '<p>Hello</p>' }));
  const kept = await world.owner.request('DELETE', `/feeds/channels/${company.id}`);
  t.deepEqual([kept.status, kept.body], [409, { error: 'Channel All hands has 1 post; a channel with posts cannot be deleted' }]);
  t.deepEqual((await world.owner.request('DELETE', `/feeds/channels/${department.id}`)).body, { data: { id: department.id, deleted: true }, links: { self: `/feeds/channels/${department.id}` } });
  t.is((await world.owner.request('GET', '/feeds/channels?q=Engineering')).body.data.length, 0);
  world.takeEvents();
});

test.serial('a post: HTML sanitised on the server, published at once with one post.published; the channel decides who may post', async (t) => {
  const open = await channel();
  world.takeEvents();
  const post = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, {
    title: ' Launch ',
    body: '<p onclick="steal()">We <strong>ship</strong> <a href="javascript:alert(1)">now</a> <a href="https://example.com">see</a></p><script>alert(1)</script><img src=x onerror=1>',
  }));
  t.like(post, { title: 'Launch', status: 'published', author_id: reader.id, author_name: reader.name, revision: 1, pinned: false, reactions: [], comment_count: 0, acknowledged: false, requires_acknowledgement: false, mrn: `mrn:feeds:post:${post.id}` });
  t.is(post.body, '<p>We <strong>ship</strong> <a rel="noopener noreferrer nofollow">now</a> <a href="https://example.com" rel="noopener noreferrer nofollow">see</a></p>');
  t.deepEqual(events(), [
    { action: 'core.feeds.post.published', payload: { post_id: post.id, mrn: post.mrn, channel_id: open.id, channel_name: open.name, author_mrn: reader.mrn, title: 'Launch', requires_acknowledgement: false, published_at: post.published_at } },
  ]);

  const admins = await channel({ post_policy: 'admins' });
  const roles = await channel({ post_policy: 'roles', post_roles: ['owner'] });
  world.takeEvents();
  await refusals(t, reader, 'posts', [
    ['POST', `/feeds/channels/${admins.id}/posts`, { body: 'Hi' }, 403, `Only owners and admins may post in channel ${admins.name}`],
    ['POST', `/feeds/channels/${roles.id}/posts`, { body: 'Hi' }, 403, `Only the roles owner may post in channel ${roles.name}`],
    ['POST', `/feeds/channels/${open.id}/posts`, { body: '<script>x()</script>' }, 400, 'body: the text is empty once its markup is sanitised', 'body'],
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Hi', status: 'archived' }, 400, 'status: a new post is a draft, scheduled or published, not archived', 'status'],
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Hi', status: 'scheduled' }, 400, 'publish_at: a scheduled post needs publish_at, the instant it publishes itself', 'publish_at'],
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Hi', publish_at: '2099-01-01T00:00:00Z' }, 400, 'publish_at: only a scheduled post has publish_at', 'publish_at'],
    ['POST', `/feeds/channels/${UNKNOWN}/posts`, { body: 'Hi' }, 404, `Channel ${UNKNOWN} not found`],
  ]);
  t.is((await world.owner.request('POST', `/feeds/channels/${admins.id}/posts`, { body: 'Hi' })).status, 200);
  world.takeEvents();
});

test.serial('a draft is its author\'s alone; edits keep every revision; the author archives; a moderator removes with a reason, once', async (t) => {
  const open = await channel();
  const draft = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { title: 'Plan', body: 'v1', status: 'draft' }));
  t.like(draft, { status: 'draft', published_at: null });
  t.deepEqual(events(), []);
  t.deepEqual((await moderator.request('GET', `/feeds/posts/${draft.id}`)).body, { error: `Post ${draft.id} not found` });
  t.deepEqual((await moderator.request('GET', `/feeds/channels/${open.id}/posts`)).body.data, []);

  const edited = await ok(reader.request('PATCH', `/feeds/posts/${draft.id}`, { body: '<em>v2</em>' }));
  t.like(edited, { body: '<em>v2</em>', revision: 2, status: 'draft' });
  await refusals(t, moderator, 'revisions', [['PATCH', `/feeds/posts/${draft.id}`, { body: 'mine' }, 404, `Post ${draft.id} not found`]]);
  const published = await ok(reader.request('PATCH', `/feeds/posts/${draft.id}`, { status: 'published' }));
  t.like(published, { status: 'published', revision: 2 });
  t.deepEqual(events().map((event) => event.action), ['core.feeds.post.published']);
  const revisions = await reader.request('GET', `/feeds/posts/${draft.id}/revisions`);
  t.deepEqual(revisions.body.data.map((revision: { revision: number; body: string; edited_by: string }) => [revision.revision, revision.body, revision.edited_by]), [[1, 'v1', reader.id], [2, '<em>v2</em>', reader.id]]);

  await refusals(t, moderator, 'posts', [
    ['PATCH', `/feeds/posts/${draft.id}`, { body: 'mine' }, 403, `Only the author may change post ${draft.id}`],
    ['DELETE', `/feeds/posts/${draft.id}`, undefined, 400, 'reason: a moderator removing a post gives the reason its author sees', 'reason'],
  ]);
  await refusals(t, reader, 'posts', [
    ['DELETE', `/feeds/posts/${draft.id}?reason=spam`, undefined, 403, `Post ${draft.id} is published: only a moderator (feeds.posts.remove) removes it`],
    ['PATCH', `/feeds/posts/${draft.id}`, { status: 'draft' }, 409, 'Cannot move a post from published to draft: draft is reached from scheduled'],
    ['PATCH', `/feeds/posts/${draft.id}`, { status: 'removed' }, 400, 'status: a post is removed with DELETE /feeds/posts/{post_id} and a reason, by a moderator', 'status'],
  ]);

  const removed = await moderator.request('DELETE', `/feeds/posts/${draft.id}?reason=Off%20topic`);
  t.deepEqual(removed.body.data, { id: draft.id, deleted: false, status: 'removed' });
  t.deepEqual(events(), [{ action: 'core.feeds.post.removed', payload: { post_id: draft.id, mrn: draft.mrn, channel_id: open.id, author_mrn: reader.mrn, reason: 'Off topic', removed_by: moderator.mrn } }]);
  t.like((await reader.request('GET', `/feeds/posts/${draft.id}`)).body.data, { status: 'removed', removed_reason: 'Off topic' });
  const again = await moderator.request('DELETE', `/feeds/posts/${draft.id}?reason=x`);
  t.deepEqual([again.status, again.body], [409, { error: 'Cannot remove a post in state removed: remove moves from published or archived to removed' }]);

  const other = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'old news' }));
  t.like(await ok(reader.request('PATCH', `/feeds/posts/${other.id}`, { status: 'archived' })), { status: 'archived' });
  const lateDraft = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'never mind', status: 'draft' }));
  t.deepEqual((await reader.request('DELETE', `/feeds/posts/${lateDraft.id}`)).body.data, { id: lateDraft.id, deleted: true, status: null });
  t.is((await reader.request('GET', `/feeds/posts/${lateDraft.id}`)).status, 404);
  t.deepEqual(events().map((event) => event.action), ['core.feeds.post.published']);
});

test.serial('a scheduled post publishes itself at publish_at through its delayed wake-up; a rescheduled one only at its new instant', async (t) => {
  const open = await channel();
  const at = new Date(world.platform.clock.now().getTime() + 3_600_000);
  await refusals(t, reader, 'posts', [
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Soon', status: 'scheduled', publish_at: '2001-01-01T00:00:00Z' }, 400, 'publish_at: 2001-01-01T00:00:00.000Z is not in the future', 'publish_at'],
  ]);
  // The platform's captured events are the broker's queue here: read them by mark, never take them before delivery.
  const mark = world.mark();
  const published = () => world.eventsSince(mark).filter(([action]) => action === 'core.feeds.post.published');
  const wakeUps = async () => (await world.platform.deliverDue(world.workspace)).filter((done) => done.event.action === 'core.feeds.post.scheduled').map((done) => `${done.event.payload.publish_at}: ${done.outcomes.feeds}`);
  const post = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'Soon', status: 'scheduled', publish_at: at.toISOString() }));
  t.like(post, { status: 'scheduled', publish_at: at.toISOString(), published_at: null });
  const later = new Date(at.getTime() + 3_600_000);
  t.like(await ok(reader.request('PATCH', `/feeds/posts/${post.id}`, { publish_at: later.toISOString() })), { status: 'scheduled', publish_at: later.toISOString() });
  const staged = world.platform.events.slice(mark).filter((event) => event.action === 'core.feeds.post.scheduled');
  t.deepEqual(staged.map((event) => [event.payload.publish_at, event.deliverAt?.toISOString(), event.withdrawn === true]), [[at.toISOString(), at.toISOString(), true], [later.toISOString(), later.toISOString(), false]]);

  world.platform.clock.advance({ hours: 1, minutes: 1 });
  t.deepEqual(await wakeUps(), []);
  t.like((await reader.request('GET', `/feeds/posts/${post.id}`)).body.data, { status: 'scheduled' });
  t.deepEqual(published(), []);

  world.platform.clock.advance({ hours: 1 });
  t.deepEqual(await wakeUps(), [`${later.toISOString()}: handled`]);
  const now = (await moderator.request('GET', `/feeds/posts/${post.id}`)).body.data;
  t.like(now, { status: 'published' });
  t.deepEqual(published(), [['core.feeds.post.published', { post_id: post.id, mrn: post.mrn, channel_id: open.id, channel_name: open.name, author_mrn: reader.mrn, requires_acknowledgement: false, published_at: now.published_at }]]);
  t.deepEqual(await wakeUps(), []);
  t.is(published().length, 1);
  world.takeEvents();
});

test.serial('polls: options and a closing time on a post; one vote per member, changeable until it closes; hidden results; poll.closed once at closes_at through the wake-up', async (t) => {
  const open = await channel();
  const hour = (n: number) => new Date(world.platform.clock.now().getTime() + n * 3_600_000).toISOString();
  const closesAt = new Date(hour(2)).toISOString();
  const publishAt = new Date(hour(3)).toISOString();
  const poll = (fields: Record<string, unknown> = {}) => ({ options: ['Tuesday', ' Thursday '], closes_at: closesAt, ...fields });
  await refusals(t, reader, 'posts', [
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Offsite?', poll: poll({ options: ['Only'] }) }, 400, 'poll.options must contain at least 2 items', 'poll.options'],
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Offsite?', poll: poll({ options: ['Yes', 'YES'] }) }, 400, 'poll.options: "YES" is listed twice', 'poll.options'],
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Offsite?', poll: poll({ closes_at: '2001-01-01T00:00:00Z' }) }, 400, 'poll.closes_at: 2001-01-01T00:00:00.000Z is not in the future', 'poll.closes_at'],
    ['POST', `/feeds/channels/${open.id}/posts`, { body: 'Offsite?', status: 'scheduled', publish_at: publishAt, poll: poll() }, 400, `poll.closes_at: ${closesAt} is not after the post's publish_at ${publishAt}`, 'poll.closes_at'],
  ]);
  t.is(await rows('polls'), 0);

  const mark = world.mark();
  const post = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { title: 'Offsite', body: 'Which day?', poll: poll() }));
  t.deepEqual(post.poll, { options: [{ index: 0, label: 'Tuesday', votes: 0 }, { index: 1, label: 'Thursday', votes: 0 }], total_votes: 0, closes_at: closesAt, closed: false, hide_results: false, my_vote: null });
  const secret = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'Secret ballot', poll: poll({ options: ['A', 'B', 'C'], hide_results: true }) }));

  t.like(await ok(reader.request('PUT', `/feeds/posts/${post.id}/vote`, { option: 0 })), { post_id: post.id, total_votes: 1, my_vote: 0 });
  t.like(await ok(moderator.request('PUT', `/feeds/posts/${post.id}/vote`, { option: 0 })), { total_votes: 2, my_vote: 0 });
  // Changing one's vote moves it; the same vote again changes nothing.
  const moved = await ok(reader.request('PUT', `/feeds/posts/${post.id}/vote`, { option: 1 }));
  t.deepEqual(moved.options, [{ index: 0, label: 'Tuesday', votes: 1 }, { index: 1, label: 'Thursday', votes: 1 }]);
  t.like(await ok(reader.request('PUT', `/feeds/posts/${post.id}/vote`, { option: 1 })), { total_votes: 2, my_vote: 1 });
  const hidden = await ok(moderator.request('PUT', `/feeds/posts/${secret.id}/vote`, { option: 2 }));
  t.deepEqual([hidden.options.map((option: { votes: unknown }) => option.votes), hidden.total_votes, hidden.my_vote], [[null, null, null], null, 2]);

  const draft = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'Later', status: 'draft', poll: poll() }));
  // Refused with nothing written or emitted (the captured events are the queue here: counted, not taken).
  const [votesBefore, eventsBefore] = [await rows('votes'), world.platform.events.length];
  for (const [method, path, body, status, error, field] of [
    ['PUT', `/feeds/posts/${post.id}/vote`, { option: 2 }, 400, 'option: 2 is not an option of this poll (0 to 1)', 'option'],
    ['PUT', `/feeds/posts/${post.id}/vote`, { option: -1 }, 400, 'option must be greater than or equal to 0', 'option'],
    ['PUT', `/feeds/posts/${draft.id}/vote`, { option: 0 }, 409, `Post ${draft.id} is draft; only a published post's poll takes votes`],
    ['PATCH', `/feeds/posts/${post.id}`, { poll: null }, 409, `Post ${post.id} is published; its poll no longer changes`],
  ] as Array<[string, string, unknown, number, string, string?]>) {
    const reply = await reader.request(method, path, body);
    t.deepEqual([reply.status, reply.body], [status, field === undefined ? { error } : { error, field }], `${method} ${path}`);
  }
  t.deepEqual([await rows('votes'), world.platform.events.length], [votesBefore, eventsBefore]);
  const plain = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'No poll here' }));
  t.deepEqual((await reader.request('PUT', `/feeds/posts/${plain.id}/vote`, { option: 0 })).body, { error: `Post ${plain.id} has no poll` });
  // A draft's poll is replaced or taken off before publication; its wake-up follows.
  t.like(await ok(reader.request('PATCH', `/feeds/posts/${draft.id}`, { poll: poll({ options: ['Red', 'Blue'] }) })), { poll: { options: [{ label: 'Red' }, { label: 'Blue' }] } });
  t.is((await ok(reader.request('PATCH', `/feeds/posts/${draft.id}`, { poll: null }))).poll, null);

  world.platform.clock.advance({ hours: 1, minutes: 59 });
  const due = async () => (await world.platform.deliverDue(world.workspace)).filter((done) => done.event.action === 'core.feeds.poll.expired').map((done) => done.outcomes.feeds);
  t.deepEqual(await due(), []);
  world.platform.clock.advance({ minutes: 2 });
  t.deepEqual(await due(), ['handled', 'handled']);
  t.deepEqual(await due(), []);
  const closed = world.eventsSince(mark).filter(([action]) => action === 'core.feeds.poll.closed');
  const closedAt = closesAt;
  t.deepEqual(closed, [
    ['core.feeds.poll.closed', { post_id: post.id, mrn: post.mrn, channel_id: open.id, title: 'Offsite', options: [{ label: 'Tuesday', votes: 1 }, { label: 'Thursday', votes: 1 }], total_votes: 2, closed_at: closedAt }],
    ['core.feeds.poll.closed', { post_id: secret.id, mrn: secret.mrn, channel_id: open.id, options: [{ label: 'A', votes: 0 }, { label: 'B', votes: 0 }, { label: 'C', votes: 1 }], total_votes: 1, closed_at: closedAt }],
  ]);
  const revealed = (await ok(reader.request('GET', `/feeds/posts/${secret.id}`))).poll;
  t.deepEqual([revealed.closed, revealed.total_votes, revealed.options.map((option: { votes: number }) => option.votes), revealed.my_vote], [true, 1, [0, 0, 1], null]);
  const late = await reader.request('PUT', `/feeds/posts/${post.id}/vote`, { option: 0 });
  t.deepEqual([late.status, late.body], [409, { error: `The poll of post ${post.id} closed at ${closedAt}` }]);
  world.takeEvents();
});

test.serial('mentions: a published post or comment tells each mentioned member once (core.member.mentioned, source feeds); not the author, not a stranger id, not a draft until it publishes, only new ones on an edit', async (t) => {
  const open = await channel();
  const mention = (member: { id: string }, name: string) => `<span data-type="mention" data-id="${member.id.toUpperCase()}" class="x" onclick="evil()">@${name}</span>`;
  const mentioned = (who: TestMember, resource: string, link: string, preview: string) => ({ action: 'core.member.mentioned', payload: { source: 'feeds', mentioned_mrn: who.mrn, mentioner_mrn: world.owner.mrn, resource_mrn: resource, link, preview } });
  world.takeEvents();
  const body = `<p>Thanks ${mention(reader, 'Reader')} and ${mention(world.owner, 'me')}, ${mention({ id: UNKNOWN }, 'ghost')} and <span style="color:red">${mention(reader, 'Reader')}</span></p>`;
  const post = await ok(world.owner.request('POST', `/feeds/channels/${open.id}/posts`, { title: 'Kudos', body }));
  const reader1 = `<span data-type="mention" data-id="${reader.id}">@Reader</span>`;
  t.is(post.body, `<p>Thanks ${reader1} and <span data-type="mention" data-id="${world.owner.id}">@me</span>, <span data-type="mention" data-id="${UNKNOWN}">@ghost</span> and <span>${reader1}</span></p>`);
  const link = `/feeds/posts/${post.id}`;
  t.deepEqual(events(), [mentioned(reader, post.mrn, link, 'Thanks @Reader and @me, @ghost and @Reader'), { action: 'core.feeds.post.published', payload: { post_id: post.id, mrn: post.mrn, channel_id: open.id, channel_name: open.name, author_mrn: world.owner.mrn, title: 'Kudos', requires_acknowledgement: false, published_at: post.published_at } }]);

  // An edit tells only the members it newly mentions.
  await ok(world.owner.request('PATCH', `/feeds/posts/${post.id}`, { body: `<p>${mention(reader, 'Reader')} ${mention(moderator, 'Mod')}</p>` }));
  t.deepEqual(events(), [mentioned(moderator, post.mrn, link, '@Reader @Mod')]);

  // A draft tells no one until it publishes.
  const draft = await ok(world.owner.request('POST', `/feeds/channels/${open.id}/posts`, { body: `<p>Soon, ${mention(moderator, 'Mod')}</p>`, status: 'draft' }));
  t.deepEqual(events(), []);
  await ok(world.owner.request('PATCH', `/feeds/posts/${draft.id}`, { status: 'published' }));
  t.deepEqual(events().map((event) => [event.action, event.payload.mentioned_mrn ?? event.payload.post_id]), [['core.member.mentioned', moderator.mrn], ['core.feeds.post.published', draft.id]]);

  const comment = await ok(world.owner.request('POST', `/feeds/posts/${post.id}/comments`, { body: `<p>Right, ${mention(reader, 'Reader')}?</p>` }));
  t.deepEqual(events(), [
    { action: 'core.feeds.comment.created', payload: { comment_id: comment.id, post_id: post.id, post_mrn: post.mrn, post_author_mrn: world.owner.mrn, author_mrn: world.owner.mrn } },
    mentioned(reader, `mrn:feeds:comment:${comment.id}`, link, 'Right, @Reader?'),
  ]);
});

test.serial('comments and reactions: on published posts only; comment.created once; a reaction twice counts once; authors and moderators delete comments', async (t) => {
  const open = await channel();
  const post = await ok(world.owner.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'Lunch?' }));
  const draft = await ok(world.owner.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'Later', status: 'draft' }));
  world.takeEvents();
  const comment = await ok(reader.request('POST', `/feeds/posts/${post.id}/comments`, { body: '<b>Yes</b><iframe src="x"></iframe>' }));
  t.like(comment, { post_id: post.id, author_id: reader.id, author_name: reader.name, body: '<b>Yes</b>' });
  t.deepEqual(events(), [{ action: 'core.feeds.comment.created', payload: { comment_id: comment.id, post_id: post.id, post_mrn: post.mrn, post_author_mrn: world.owner.mrn, author_mrn: reader.mrn } }]);
  await refusals(t, world.owner, 'comments', [
    ['POST', `/feeds/posts/${draft.id}/comments`, { body: 'x' }, 409, `Post ${draft.id} is draft; only a published post takes comments`],
    ['POST', `/feeds/posts/${post.id}/comments`, { body: '' }, 400, 'body is not allowed to be empty', 'body'],
  ]);
  await refusals(t, moderator, 'reactions', [
    ['PUT', `/feeds/posts/${post.id}/reactions/${encodeURIComponent('<b>')}`, undefined, 400, 'emoji: <b> is neither an emoji nor a short code (a-z, 0-9, _, + and -, up to 32)', 'emoji'],
    ['PUT', `/feeds/posts/${draft.id}/reactions/tada`, undefined, 404, `Post ${draft.id} not found`],
  ]);

  const thumbs = encodeURIComponent('👍');
  await ok(reader.request('PUT', `/feeds/posts/${post.id}/reactions/${thumbs}`));
  await ok(reader.request('PUT', `/feeds/posts/${post.id}/reactions/${thumbs}`));
  const both = await ok(moderator.request('PUT', `/feeds/posts/${post.id}/reactions/${thumbs}`));
  t.deepEqual(both, { post_id: post.id, reactions: [{ emoji: '👍', count: 2, mine: true }] });
  await ok(moderator.request('PUT', `/feeds/posts/${post.id}/reactions/tada`));
  t.deepEqual(await ok(moderator.request('DELETE', `/feeds/posts/${post.id}/reactions/${thumbs}`)), { post_id: post.id, reactions: [{ emoji: '👍', count: 1, mine: false }, { emoji: 'tada', count: 1, mine: true }] });
  t.like((await reader.request('GET', `/feeds/posts/${post.id}`)).body.data, { comment_count: 1, reactions: [{ emoji: '👍', count: 1, mine: true }, { emoji: 'tada', count: 1, mine: false }] });

  const second = await ok(moderator.request('POST', `/feeds/posts/${post.id}/comments`, { body: 'Me too' }));
  t.deepEqual((await reader.request('GET', `/feeds/posts/${post.id}/comments`)).body.data.map((row: { id: string }) => row.id), [comment.id, second.id]);
  const foreign = await reader.request('DELETE', `/feeds/comments/${second.id}`);
  t.deepEqual([foreign.status, foreign.body], [403, { error: `Only its author or a moderator may delete comment ${second.id}` }]);
  t.is((await moderator.request('DELETE', `/feeds/comments/${comment.id}`)).status, 200);
  t.is((await moderator.request('DELETE', `/feeds/comments/${comment.id}`)).status, 404);
  world.takeEvents();
});

test.serial('announcements: each member acknowledges once (one event); the author and admins see who has and who has not', async (t) => {
  const open = await channel();
  const announcement = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { title: 'Policy', body: 'Read me', requires_acknowledgement: true }));
  const plain = await ok(reader.request('POST', `/feeds/channels/${open.id}/posts`, { body: 'Chat' }));
  world.takeEvents();
  const ack = await ok(moderator.request('PUT', `/feeds/posts/${announcement.id}/acknowledgement`));
  t.like(ack, { post_id: announcement.id, member_id: moderator.id });
  t.deepEqual(await ok(moderator.request('PUT', `/feeds/posts/${announcement.id}/acknowledgement`)), ack);
  t.deepEqual(events(), [{ action: 'core.feeds.announcement.acknowledged', payload: { post_id: announcement.id, mrn: announcement.mrn, member_mrn: moderator.mrn } }]);
  t.true((await moderator.request('GET', `/feeds/posts/${announcement.id}`)).body.data.acknowledged);
  await refusals(t, moderator, 'acknowledgements', [
    ['PUT', `/feeds/posts/${plain.id}/acknowledgement`, undefined, 409, `Post ${plain.id} does not ask for acknowledgement`],
    ['GET', `/feeds/posts/${announcement.id}/acknowledgements`, undefined, 403, `Only the author of post ${announcement.id} and admins see who acknowledged it`],
  ]);

  const seen = await ok(reader.request('GET', `/feeds/posts/${announcement.id}/acknowledgements`));
  t.deepEqual(seen.acknowledged, [{ member_id: moderator.id, name: moderator.name, acknowledged_at: ack.acknowledged_at }]);
  const pending = seen.pending.map((member: { member_id: string }) => member.member_id);
  t.true(pending.includes(world.owner.id) && pending.includes(reader.id));
  t.false(pending.includes(moderator.id));
  t.deepEqual((await ok(world.owner.request('GET', `/feeds/posts/${announcement.id}/acknowledgements`))).acknowledged.length, 1);
});

test.serial('pins expire; the timeline lists pinned posts first, then the rest newest first in keyset pages', async (t) => {
  const own = await channel();
  const made = [];
  for (let i = 1; i <= 4; i += 1) {
    made.push(await ok(world.owner.request('POST', `/feeds/channels/${own.id}/posts`, { body: `Post ${i}` })));
    world.platform.clock.advance(1000);
  }
  const [first, second, third, fourth] = made;
  const until = new Date(world.platform.clock.now().getTime() + 3_600_000).toISOString();
  t.like(await ok(world.owner.request('PUT', `/feeds/posts/${first.id}/pin`, { until })), { pinned: true, pinned_until: until });
  await refusals(t, world.owner, 'posts', [
    ['PUT', `/feeds/posts/${second.id}/pin`, { until: '2001-01-01T00:00:00Z' }, 400, 'until: 2001-01-01T00:00:00.000Z is not in the future', 'until'],
    ['GET', `/feeds/timeline?channel_id=${own.id}&after=nonsense`, undefined, 400, 'after: not a cursor this timeline gave', 'after'],
  ]);
  const denied = await reader.request('PUT', `/feeds/posts/${second.id}/pin`, {});
  t.is(denied.status, 403);

  const page1 = await ok(reader.request('GET', `/feeds/timeline?channel_id=${own.id}&limit=2`));
  t.deepEqual(page1.posts.map((post: { id: string }) => post.id), [first.id, fourth.id, third.id]);
  const page2 = await ok(reader.request('GET', `/feeds/timeline?channel_id=${own.id}&limit=2&after=${page1.next_cursor}`));
  t.deepEqual(page2.posts.map((post: { id: string }) => post.id), [second.id]);
  t.is(page2.next_cursor, null);

  world.platform.clock.advance({ hours: 2 });
  const expired = await ok(reader.request('GET', `/feeds/timeline?channel_id=${own.id}`));
  t.deepEqual(expired.posts.map((post: { id: string; pinned: boolean }) => [post.id, post.pinned]), [[fourth.id, false], [third.id, false], [second.id, false], [first.id, false]]);
  const before = world.platform.clock.now().getTime();
  const defaulted = await ok(world.owner.request('PUT', `/feeds/posts/${second.id}/pin`, {}));
  const pinnedFor = new Date(defaulted.pinned_until).getTime() - 7 * 86_400_000;
  t.true(pinnedFor >= before && pinnedFor <= world.platform.clock.now().getTime(), 'pinned for the default 7 days');
  t.like(await ok(world.owner.request('DELETE', `/feeds/posts/${second.id}/pin`)), { pinned: false, pinned_until: null });
  world.takeEvents();
});

test.serial('event cards by consent: an admin binds a catalog action to a channel with chosen fields; each event becomes one published card showing only those fields, once per delivery id', async (t) => {
  const news = await channel({ name: 'Newcomers' });
  const binding = { action: 'core.workers.worker.hired', channel_id: news.id, fields: ['name', 'title'], title: 'Welcome {name}', template: 'Please welcome {name}, our new {title}!' };
  await refusals(t, world.owner, 'bindings', [
    ['POST', '/feeds/bindings', { ...binding, action: 'core.finance.invoice.paid' }, 400, 'action must be one of [core.workers.worker.hired, core.ats.application.hired, core.growth.praise.given, core.growth.goal.completed]', 'action'],
    ['POST', '/feeds/bindings', { ...binding, fields: ['name', 'work_email'] }, 400, 'fields: core.workers.worker.hired offers name, title, start_date, employment_type, not work_email', 'fields'],
    ['POST', '/feeds/bindings', { ...binding, template: 'Write to {work_email}' }, 400, 'template: {work_email} is not among the fields the binding shows (name, title)', 'template'],
    ['POST', '/feeds/bindings', { ...binding, title: '{start_date}' }, 400, 'title: {start_date} is not among the fields the binding shows (name, title)', 'title'],
    ['POST', '/feeds/bindings', { ...binding, channel_id: UNKNOWN }, 404, `Channel ${UNKNOWN} not found`],
  ]);
  const made = await ok(world.owner.request('POST', '/feeds/bindings', binding));
  t.like(made, { action: 'core.workers.worker.hired', channel_id: news.id, fields: ['name', 'title'], title: 'Welcome {name}', template: 'Please welcome {name}, our new {title}!', created_by: world.owner.id });
  t.deepEqual((await ok(world.owner.request('GET', '/feeds/bindable-actions'))).map((row: { action: string }) => row.action), ['core.workers.worker.hired', 'core.ats.application.hired', 'core.growth.praise.given', 'core.growth.goal.completed']);
  t.deepEqual((await ok(world.owner.request('GET', '/feeds/bindings'))).map((row: { id: string }) => row.id), [made.id]);
  t.is((await reader.request('POST', '/feeds/bindings', binding)).status, 403);

  const workerId = crypto.randomUUID();
  const hired = { worker_id: workerId, mrn: `mrn:workers:worker:${workerId}`, name: 'Nia <Okafor>', title: 'Engineer', work_email: 'nia@example.com', status: 'onboarding', revision: 1 };
  const deliveryId = crypto.randomUUID();
  const mark = world.mark();
  await world.deliver('core.workers.worker.hired', hired, { deliveryId });
  await world.deliver('core.workers.worker.hired', hired, { deliveryId });
  const cards = await ok(world.owner.request('GET', `/feeds/channels/${news.id}/posts`));
  t.is(cards.length, 1);
  t.like(cards[0], { title: 'Welcome Nia <Okafor>', body: '<p>Please welcome Nia &lt;Okafor&gt;, our new Engineer!</p>', status: 'published', author_id: world.owner.id });
  t.false(JSON.stringify(cards[0]).includes('nia@example.com'));
  t.deepEqual(world.eventsSince(mark).map(([action, payload]) => [action, payload.post_id]), [['core.feeds.post.published', cards[0].id]]);

  // Another event is another card; a removed binding makes no more.
  await world.deliver('core.workers.worker.hired', { ...hired, name: 'Bo' }, { deliveryId: crypto.randomUUID() });
  t.is((await ok(world.owner.request('GET', `/feeds/channels/${news.id}/posts`))).length, 2);
  t.deepEqual((await world.owner.request('DELETE', `/feeds/bindings/${made.id}`)).body.data, { id: made.id, deleted: true });
  await world.deliver('core.workers.worker.hired', { ...hired, name: 'Cy' }, { deliveryId: crypto.randomUUID() });
  t.is((await ok(world.owner.request('GET', `/feeds/channels/${news.id}/posts`))).length, 2);
  t.is((await world.owner.request('DELETE', `/feeds/bindings/${made.id}`)).status, 404);
  world.takeEvents();
});

test.serial("department channels: read by the department's members and those of the departments below it (the workers copy), and by owners and admins; to anyone else not there", async (t) => {
  const [engineering, backend, sales] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  const department = (id: string, name: string, parent: string | null, revision = 1) => world.deliver('core.workers.department.created', { department_id: id, mrn: `mrn:workers:department:${id}`, name, ...(parent ? { parent_id: parent } : {}), revision });
  await department(engineering, 'Engineering', null);
  await department(backend, 'Backend', engineering);
  await department(sales, 'Sales', null);
  const worker = (member: TestMember, departmentId: string, revision: number, action = 'core.workers.worker.hired', status = 'active') => {
    const id = member === reader ? READER_WORKER : MODERATOR_WORKER;
    return world.deliver(action, { worker_id: id, mrn: `mrn:workers:worker:${id}`, name: member.name, work_email: member.email, member_id: member.id, department_id: departmentId, status, revision, ...(action === 'core.workers.worker.updated' ? { changed_fields: ['department_id'] } : {}) });
  };
  await worker(reader, backend, 1);
  await worker(moderator, sales, 1);

  const channelOf = await ok(world.owner.request('POST', '/feeds/channels', { name: 'Engineering news', kind: 'department', department_mrn: `mrn:workers:department:${engineering}` }));
  const post = await ok(world.owner.request('POST', `/feeds/channels/${channelOf.id}/posts`, { title: 'Eng only', body: '<p>Sprint review</p>', requires_acknowledgement: true }));
  const listed = async (who: TestMember) => (await ok(who.request('GET', '/feeds/channels?kind=department'))).map((row: { id: string }) => row.id).includes(channelOf.id);
  const onTimeline = async (who: TestMember) => (await ok(who.request('GET', '/feeds/timeline?limit=100'))).posts.some((row: { id: string }) => row.id === post.id);

  // Backend is below Engineering: its member reads the channel; Sales's does not, nor finds it.
  t.deepEqual([await listed(reader), await onTimeline(reader), (await reader.request('GET', `/feeds/posts/${post.id}`)).status], [true, true, 200]);
  t.deepEqual([await listed(moderator), await onTimeline(moderator)], [false, false]);
  for (const [method, path, body] of [['GET', `/feeds/posts/${post.id}`], ['GET', `/feeds/channels/${channelOf.id}/posts`], ['POST', `/feeds/channels/${channelOf.id}/posts`, { body: 'x' }], ['POST', `/feeds/posts/${post.id}/comments`, { body: 'x' }]] as Array<[string, string, unknown?]>) {
    const reply = await moderator.request(method, path, body);
    t.deepEqual([reply.status, reply.body], [404, { error: path.includes('/channels/') ? `Channel ${channelOf.id} not found` : `Post ${post.id} not found` }], `${method} ${path}`);
  }
  // A mention does not widen the audience: the plain member outside it is not told.
  world.takeEvents();
  const mentioning = await ok(world.owner.request('POST', `/feeds/channels/${channelOf.id}/posts`, { body: `<p><span data-type="mention" data-id="${moderator.id}">@Mod</span> <span data-type="mention" data-id="${reader.id}">@Reader</span></p>` }));
  t.deepEqual(world.takeEvents().filter((event) => event.action === 'core.member.mentioned').map((event) => event.payload.mentioned_mrn), [reader.mrn]);
  await ok(world.owner.request('DELETE', `/feeds/posts/${mentioning.id}?reason=test`));
  // Only the audience is pending acknowledgement.
  t.deepEqual((await ok(world.owner.request('GET', `/feeds/posts/${post.id}/acknowledgements`))).pending.map((row: { member_id: string }) => row.member_id), [reader.id]);
  // Not in the search index (which anyone holding the key searches).
  t.deepEqual(await ok(world.owner.request('POST', '/search', { app: 'feeds', q: 'Sprint' })), []);

  // Moving departments moves the audience; an older revision changes nothing.
  await worker(reader, sales, 2, 'core.workers.worker.department_changed');
  await worker(reader, backend, 1, 'core.workers.worker.updated');
  t.deepEqual([await listed(reader), (await reader.request('GET', `/feeds/posts/${post.id}`)).status], [false, 404]);
  await worker(moderator, backend, 2, 'core.workers.worker.department_changed');
  t.deepEqual([await listed(moderator), await onTimeline(moderator)], [true, true]);
  await worker(moderator, backend, 3, 'core.workers.worker.terminated', 'terminated');
  t.is(await listed(moderator), false);

  // Turned into a topic channel, it is everyone's again, and its posts are searchable.
  await ok(world.owner.request('PATCH', `/feeds/channels/${channelOf.id}`, { kind: 'topic', department_mrn: null }));
  t.deepEqual([await listed(reader), (await reader.request('GET', `/feeds/posts/${post.id}`)).status], [false, 200]);
  t.deepEqual((await ok(world.owner.request('POST', '/search', { app: 'feeds', q: 'Sprint' }))).map((hit: { url: string }) => hit.url), [`/feeds/posts/${post.id}`]);
  world.takeEvents();
});

test('the permission matrix: every route refuses a member without its key with the exact 403 and lets a holder through', async (t) => {
  const matrix = await world.workspace.permissionMatrix('feeds');
  t.is(matrix.length, manifest.authorization.length);
  checkMatrixRows(t, matrix);
});
