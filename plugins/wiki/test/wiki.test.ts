import test from 'ava';
import { fileURLToPath } from 'node:url';
import { listenForSockets, ok, startWorld, subscribeChannel, type TestMember, type TestResponse, type World } from '@wpk/testing';
import * as Y from 'yjs';
import app from '../src/index.js';
import { lineDiff } from '../src/services/pages.js';

const KEYS = ['wiki.spaces.read', 'wiki.spaces.create', 'wiki.pages.edit', 'wiki.comments.create'];
let world: World;
let ann: TestMember;
let bob: TestMember;
let carl: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  world = await startWorld({ app, subdomain: 'wiki', apps: [fileURLToPath(new URL('../../leaves', import.meta.url))], firstParty: ['wiki', 'leaves'], clock: new Date('2026-11-02T09:00:00.000Z') });
  await world.workspace.install('leaves');
  [ann, bob, carl] = await world.members(3, KEYS);
  world.takeEvents();
});
test.after.always(() => world?.close());

const refused = (t: { is(a: unknown, b: unknown, m?: string): unknown }, answer: TestResponse, status: number, error: string) => {
  t.is(answer.status, status, error);
  t.is(answer.body.error, error);
};
type Row = { id: string; title: string; depth: number; parent_hidden: boolean; parent_id: string | null };
const tree = async (member: TestMember, space = ids.space) => (ok(await member.get(`/wiki/spaces/${space}/pages`)) as Row[]).map((row) => `${'  '.repeat(row.depth)}${row.title}${row.parent_hidden ? ' (parent hidden)' : ''}`);
const text = (answer: TestResponse) => String(answer.body);

test.serial('spaces with roles: a private space exists only for its members; each role does what it allows', async (t) => {
  const space = ok(await ann.post('/wiki/spaces', { name: 'Handbook', description: 'How we work', default_role: 'none' }));
  ids.space = space.id;
  t.like(space, { name: 'Handbook', default_role: 'none', role: 'admin', publication: null, revision: 1 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.wiki.space.created', payload: { space_id: space.id, name: 'Handbook', default_role: 'none', by: ann.mrn } }]);

  t.deepEqual(ok(await bob.get('/wiki/spaces')), []);
  refused(t, await bob.patch(`/wiki/spaces/${space.id}`, { name: 'Mine' }), 404, `Space ${space.id} not found`);
  refused(t, await ann.put(`/wiki/spaces/${space.id}/members`, { members: [{ member_id: bob.id, role: 'edit' }, { member_id: bob.id, role: 'view' }] }), 400, `members[1].member_id: member ${bob.id} is named twice`);
  const stranger = crypto.randomUUID();
  t.is((await ann.put(`/wiki/spaces/${space.id}/members`, { members: [{ member_id: stranger, role: 'edit' }] })).status, 400);
  refused(t, await ann.put(`/wiki/spaces/${space.id}/members`, { members: [{ member_id: bob.id, role: 'owner' }] }), 400, 'members[0].role must be one of [view, comment, edit, admin]');
  const members = ok(await ann.put(`/wiki/spaces/${space.id}/members`, { members: [{ member_id: bob.id, role: 'edit' }, { member_id: carl.id, role: 'view' }] }));
  t.deepEqual(members, [{ space_id: space.id, member_id: bob.id, role: 'edit' }, { space_id: space.id, member_id: carl.id, role: 'view' }]);
  t.like((ok(await bob.get('/wiki/spaces')) as unknown[])[0], { id: space.id, role: 'edit' });
  refused(t, await bob.patch(`/wiki/spaces/${space.id}`, { name: 'Mine' }), 403, 'Your role on space Handbook is edit: managing the space needs admin');
  refused(t, await carl.post(`/wiki/spaces/${space.id}/pages`, { title: 'Mine' }), 403, 'Your role on space Handbook is view: editing pages needs edit');
  t.like(ok(await ann.patch(`/wiki/spaces/${space.id}`, { description: 'How we work here' })), { description: 'How we work here', revision: 2 });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('the page tree: fractional order, a move takes the subtree, a cycle is refused naming the page', async (t) => {
  const add = async (title: string, parent?: string, by = ann) => {
    const made = ok(await by.post(`/wiki/spaces/${ids.space}/pages`, { title, ...(parent ? { parent_id: ids[parent] } : {}), markdown: `# ${title}\n` }));
    ids[title] = made.id;
    return made;
  };
  await add('Onboarding');
  await add('Policies');
  await add('First day', 'Onboarding', bob);
  await add('Laptop', 'First day');
  await add('Accounts', 'Onboarding');
  t.deepEqual(await tree(carl), ['Onboarding', '  First day', '    Laptop', '  Accounts', 'Policies']);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.title, event.payload.parent_id ?? null]), [
    ['core.wiki.page.created', 'Onboarding', null], ['core.wiki.page.created', 'Policies', null], ['core.wiki.page.created', 'First day', ids.Onboarding],
    ['core.wiki.page.created', 'Laptop', ids['First day']], ['core.wiki.page.created', 'Accounts', ids.Onboarding],
  ]);

  refused(t, await ann.post(`/wiki/pages/${ids.Onboarding}/move`, { parent_id: ids.Laptop }), 409, `Page Onboarding cannot move under Laptop (${ids.Laptop}): it is below Onboarding, the move would make a cycle`);
  refused(t, await ann.post(`/wiki/pages/${ids.Onboarding}/move`, { parent_id: ids.Onboarding }), 409, 'Page Onboarding cannot move under itself');
  refused(t, await ann.post(`/wiki/pages/${ids.Accounts}/move`, { parent_id: ids.Onboarding, after_id: ids.Policies }), 400, `after_id: page ${ids.Policies} is not a sibling under Onboarding`);
  t.deepEqual(world.takeEvents(), []);

  const moved = ok(await bob.post(`/wiki/pages/${ids['First day']}/move`, { parent_id: ids.Policies }));
  t.like(moved, { parent_id: ids.Policies, depth: 1 });
  t.deepEqual(await tree(carl), ['Onboarding', '  Accounts', 'Policies', '  First day', '    Laptop']);
  ok(await bob.post(`/wiki/pages/${ids.Policies}/move`, { parent_id: null, before_id: ids.Onboarding }));
  ok(await bob.post(`/wiki/pages/${ids.Accounts}/move`, { parent_id: ids.Policies, before_id: ids['First day'] }));
  t.deepEqual(await tree(carl), ['Policies', '  Accounts', '  First day', '    Laptop', 'Onboarding']);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.page_id, event.payload.pages]), [
    ['core.wiki.page.moved', ids['First day'], 2], ['core.wiki.page.moved', ids.Policies, 3], ['core.wiki.page.moved', ids.Accounts, 1],
  ]);
});

test.serial('a restricted page hides its subtree; a page whose parent is hidden is reported at the top, never dropped', async (t) => {
  ok(await ann.patch(`/wiki/pages/${ids.Policies}`, { restricted_to: [ann.id, bob.id] }));
  ok(await ann.patch(`/wiki/pages/${ids['First day']}`, { restricted_to: [carl.id] }));
  t.deepEqual(await tree(bob), ['Policies', '  Accounts', 'Onboarding']);
  t.deepEqual(await tree(carl), ['First day (parent hidden)', '  Laptop', 'Onboarding']);
  t.like(ok(await carl.get(`/wiki/pages/${ids.Laptop}`)), { title: 'Laptop', parent_hidden: false, depth: 2 });
  t.like(ok(await carl.get(`/wiki/pages/${ids['First day']}`)), { parent_hidden: true });
  refused(t, await carl.get(`/wiki/pages/${ids.Accounts}`), 404, `Page ${ids.Accounts} not found`);
  refused(t, await bob.get(`/wiki/pages/${ids.Laptop}`), 404, `Page ${ids.Laptop} not found`);
  refused(t, await bob.patch(`/wiki/pages/${ids.Accounts}`, { restricted_to: [carl.id] }), 400, 'restricted_to must name you: you would lose the page (only the space admins may)');
  t.deepEqual(await tree(ann), ['Policies', '  Accounts', '  First day', '    Laptop', 'Onboarding']);
  ok(await ann.patch(`/wiki/pages/${ids.Policies}`, { restricted_to: null }));
  ok(await ann.patch(`/wiki/pages/${ids['First day']}`, { restricted_to: null }));
  world.takeEvents();
});

test.serial('content is a JSON document written with the version read: a stale write is a 409 naming the current version', async (t) => {
  const page = ok(await bob.get(`/wiki/pages/${ids.Accounts}`));
  t.deepEqual(page.content, { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Accounts' }] }] });
  t.is(page.version, 1);
  const written = ok(await bob.patch(`/wiki/pages/${ids.Accounts}`, { version: 1, markdown: '# Accounts\n\nAsk **IT** for `mail` and:\n\n- a laptop\n- a badge\n' }));
  t.is(written.version, 2);
  t.is(written.markdown, '# Accounts\n\nAsk **IT** for `mail` and:\n\n- a laptop\n- a badge\n');
  t.deepEqual(written.content.content[1], { type: 'paragraph', content: [{ type: 'text', text: 'Ask ' }, { type: 'text', text: 'IT', marks: [{ type: 'bold' }] }, { type: 'text', text: ' for ' }, { type: 'text', text: 'mail', marks: [{ type: 'code' }] }, { type: 'text', text: ' and:' }] });
  refused(t, await ann.patch(`/wiki/pages/${ids.Accounts}`, { version: 1, title: 'Logins' }), 409, 'Page Accounts changed since you read it: you read version 1, it is now version 2');
  refused(t, await ann.patch(`/wiki/pages/${ids.Accounts}`, { title: 'Logins' }), 400, 'version is required to change the title or content: the version you read');
  refused(t, await ann.patch(`/wiki/pages/${ids.Accounts}`, { version: 2, content: { type: 'paragraph' } }), 400, 'content.type must be doc');
  t.deepEqual(world.takeEvents(), [{ action: 'core.wiki.page.updated', payload: { page_id: ids.Accounts, space_id: ids.space, version: 2, changed_fields: ['content'], by: bob.mrn } }]);
});

test.serial('links by page id survive a rename; backlinks; a deleted target shows in the broken-link report', async (t) => {
  const onboarding = ok(await ann.get(`/wiki/pages/${ids.Onboarding}`));
  ok(await ann.patch(`/wiki/pages/${ids.Onboarding}`, { version: onboarding.version, markdown: `Read [the laptop guide](page:${ids.Laptop}) and [accounts](page:${ids.Accounts}).\n` }));
  const laptop = ok(await ann.get(`/wiki/pages/${ids.Laptop}`));
  ok(await ann.patch(`/wiki/pages/${ids.Laptop}`, { version: laptop.version, title: 'Your laptop' }));
  t.deepEqual((ok(await carl.get(`/wiki/pages/${ids.Laptop}/backlinks`)) as Row[]).map((row) => row.title), ['Onboarding']);
  t.is(ok(await carl.get(`/wiki/pages/${ids.Onboarding}`)).markdown, `Read [the laptop guide](page:${ids.Laptop}) and [accounts](page:${ids.Accounts}).\n`);
  t.deepEqual(ok(await carl.get(`/wiki/spaces/${ids.space}/broken-links`)), []);
  t.like(ok(await ann.delete(`/wiki/pages/${ids['First day']}`)), { id: ids['First day'], deleted: true, pages: 2 });
  t.deepEqual(ok(await carl.get(`/wiki/spaces/${ids.space}/broken-links`)), [{ page_id: ids.Onboarding, title: 'Onboarding', target_page_id: ids.Laptop }]);
  refused(t, await carl.get(`/wiki/pages/${ids.Laptop}/backlinks`), 404, `Page ${ids.Laptop} not found`);
  world.takeEvents();
});

test.serial('history: versions, a diff of two, a restore as a new version', async (t) => {
  const versions = ok(await ann.get(`/wiki/pages/${ids.Accounts}/versions`)) as Array<{ version: number; title: string }>;
  t.deepEqual(versions.map((row) => [row.version, row.title]), [[2, 'Accounts'], [1, 'Accounts']]);
  const diff = ok(await ann.get(`/wiki/pages/${ids.Accounts}/diff?from=1&to=2`));
  t.deepEqual(diff.lines, [{ op: 'keep', text: '# Accounts' }, { op: 'add', text: '' }, { op: 'add', text: 'Ask **IT** for `mail` and:' }, { op: 'add', text: '' }, { op: 'add', text: '- a laptop' }, { op: 'add', text: '- a badge' }]);
  refused(t, await ann.post(`/wiki/pages/${ids.Accounts}/restore`, { version: 1, read_version: 1 }), 409, 'Page Accounts changed since you read it: you read version 1, it is now version 2');
  const restored = ok(await ann.post(`/wiki/pages/${ids.Accounts}/restore`, { version: 1, read_version: 2 }));
  t.like(restored, { version: 3, markdown: '# Accounts\n' });
  refused(t, await ann.get(`/wiki/pages/${ids.Accounts}/diff?from=9`), 404, 'Version 9 of page Accounts not found');
  t.deepEqual(lineDiff(['a', 'b', 'c'], ['a', 'x', 'c']), [{ op: 'keep', text: 'a' }, { op: 'remove', text: 'b' }, { op: 'add', text: 'x' }, { op: 'keep', text: 'c' }]);
  const long = Array.from({ length: 3000 }, (_, at) => `line ${at}`);
  t.deepEqual(lineDiff(long, [...long.slice(0, 10), 'new', ...long.slice(11)]).filter((line) => line.op !== 'keep'), [{ op: 'remove', text: 'line 10' }, { op: 'add', text: 'new' }]);
  world.takeEvents();
});

test.serial('verification: verified → due when the interval passes (the owner is told) → expired after the grace period', async (t) => {
  refused(t, await carl.post(`/wiki/pages/${ids.Accounts}/verification`, {}), 403, 'Your role on space Handbook is view: editing pages needs edit');
  ok(await world.owner.put('/apps/wiki/settings', { review_days: 90, grace_days: 2 }));
  const verified = ok(await bob.post(`/wiki/pages/${ids.Accounts}/verification`, { review_days: 3 }));
  t.like(verified, { verification: 'verified', owner_id: bob.id, review_days: 3 });
  t.is(Date.parse(verified.due_at) - Date.parse(verified.verified_at), 3 * 86_400_000);
  const mine = await world.member(KEYS);
  ok(await ann.put(`/wiki/spaces/${ids.space}/members`, { members: [{ member_id: bob.id, role: 'edit' }, { member_id: carl.id, role: 'view' }, { member_id: mine.id, role: 'edit' }] }));
  refused(t, await mine.post(`/wiki/pages/${ids.Accounts}/verification`, {}), 403, `Page Accounts is owned by member ${bob.id}: only its owner or a space admin may verify it`);
  const mark = world.mark();
  world.platform.clock.advance({ days: 2, hours: 23 });
  await world.platform.deliverDue(world.workspace);
  t.is(ok(await bob.get(`/wiki/pages/${ids.Accounts}`)).verification, 'verified');
  world.platform.clock.advance({ hours: 1, minutes: 1 });
  await world.platform.deliverDue(world.workspace);
  const due = ok(await bob.get(`/wiki/pages/${ids.Accounts}`));
  t.is(due.verification, 'due');
  t.true(Date.parse(due.due_at) >= Date.parse(verified.due_at));
  world.platform.clock.advance({ days: 1, hours: 23 });
  await world.platform.deliverDue(world.workspace);
  t.is(ok(await bob.get(`/wiki/pages/${ids.Accounts}`)).verification, 'due');
  world.platform.clock.advance({ hours: 1 });
  await world.platform.deliverDue(world.workspace);
  t.is(ok(await bob.get(`/wiki/pages/${ids.Accounts}`)).verification, 'expired');
  t.deepEqual(world.eventsSince(mark).map(([action, payload]) => [action, payload.step ?? payload.owner_mrn ?? null, payload.reason ?? null]), [
    ['core.wiki.review.scheduled', 'expire', null],
    ['core.wiki.page.review_requested', bob.mrn, 'interval'],
    ['core.wiki.page.expired', bob.mrn, null],
  ]);
  t.like(ok(await bob.post(`/wiki/pages/${ids.Accounts}/verification`, {})), { verification: 'verified', review_days: 3 });
  world.takeEvents();
});

test.serial('a page watching a leave type drops to due when the type changes, and its owner is told', async (t) => {
  const type = ok(await world.owner.post('/leaves/types', { name: 'Paid leave', unit: 'day' }));
  const policy = ok(await ann.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Leave policy', markdown: '25 days a year.\n', watches: [`mrn:leaves:leave_type:${type.id}`], owner_id: carl.id }));
  const other = ok(await ann.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Expenses', watches: [`mrn:leaves:leave_type:${crypto.randomUUID()}`] }));
  // A watch written with the resource `type` (before leave types were named by their searchable type) still counts.
  const older = ok(await ann.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Carry-over', watches: [`mrn:leaves:type:${type.id}`] }));
  for (const page of [policy, other, older]) ok(await ann.post(`/wiki/pages/${page.id}/verification`, { review_days: 365 }));
  await world.platform.deliverDue(world.workspace);
  world.takeEvents();
  ok(await world.owner.patch(`/leaves/types/${type.id}`, { name: 'Annual leave' }));
  await world.platform.deliverDue(world.workspace);
  t.like(ok(await ann.get(`/wiki/pages/${policy.id}`)), { verification: 'due', owner_id: carl.id });
  t.is(ok(await ann.get(`/wiki/pages/${other.id}`)).verification, 'verified');
  t.is(ok(await ann.get(`/wiki/pages/${older.id}`)).verification, 'due');
  const requested = world.takeEvents().filter((event) => event.action === 'core.wiki.page.review_requested');
  const told = requested.filter((event) => (event.payload as { page_id: string }).page_id === policy.id);
  t.deepEqual(told, [{ action: 'core.wiki.page.review_requested', payload: { page_id: policy.id, space_id: ids.space, title: 'Leave policy', owner_mrn: carl.mrn, reason: 'watched', watched_mrn: `mrn:leaves:leave_type:${type.id}`, watched_action: 'core.leaves.type.updated' } }]);
  t.deepEqual(
    requested.map((event) => (event.payload as { title: string; watched_mrn: string }).title + ' ' + (event.payload as { watched_mrn: string }).watched_mrn).sort(),
    [`Carry-over mrn:leaves:type:${type.id}`, `Leave policy mrn:leaves:leave_type:${type.id}`],
  );
  // As the broker would, to the platform's notification sender of the event (the harness delivers to apps only).
  const runtime = world.platform.runtime;
  const request = runtime.events.deliveryRequest({ subscriber: 'system', handler: '/events/core-wiki-page-review_requested/notify-system', workspaceId: world.workspaceId, action: told[0]!.action, payload: told[0]!.payload });
  t.is((await runtime.server.inject({ method: 'POST', url: request.path, headers: request.headers, payload: request.body })).statusCode, 200);
  const inbox = ok(await carl.get('/notifications')) as Array<{ kind: string; title: string; link: string }>;
  t.deepEqual(inbox.filter((note) => note.kind.startsWith('wiki.')).map((note) => [note.kind, note.title, note.link]), [['wiki.review_requested', 'Please review Leave policy', `/app/wiki/pages/${policy.id}`]]);
  ids.policy = policy.id;
});

test.serial('publication: a published subtree is public (site, page, sitemap) and nothing else is reachable', async (t) => {
  const space2 = ok(await ann.post('/wiki/spaces', { name: 'Public docs' }));
  const guide = ok(await ann.post(`/wiki/spaces/${space2.id}/pages`, { title: 'Guide' }));
  const start = ok(await ann.post(`/wiki/spaces/${space2.id}/pages`, { title: 'Start', parent_id: guide.id, markdown: `Go on to [internal](page:${ids.Onboarding}) or [see](https://example.com) <b>x</b>\n` }));
  const secret = ok(await ann.post(`/wiki/spaces/${space2.id}/pages`, { title: 'Secret', parent_id: guide.id, restricted_to: [ann.id] }));
  const draft = ok(await ann.post(`/wiki/spaces/${space2.id}/pages`, { title: 'Draft' }));
  world.takeEvents();
  const anonymous = world.workspace.anonymous;
  t.deepEqual(ok(await anonymous.get('/wiki/site')).spaces, []);
  refused(t, await anonymous.get(`/wiki/site/pages/${start.id}`), 404, `Page ${start.id} is not published`);
  refused(t, await bob.put(`/wiki/spaces/${ids.space}/publication`, {}), 403, 'Your role on space Handbook is edit: managing the space needs admin');

  const published = ok(await ann.put(`/wiki/spaces/${space2.id}/publication`, { page_id: guide.id }));
  t.like(published, { publication: { page_id: guide.id }, published_pages: 2 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.wiki.page.published', payload: { space_id: space2.id, page_id: guide.id, page_ids: [guide.id, start.id], by: ann.mrn } }]);
  t.deepEqual(ok(await anonymous.get('/wiki/site')).spaces, [{ id: space2.id, name: 'Public docs', description: '', pages: [{ id: guide.id, title: 'Guide', depth: 0, url: `/public/apps/wiki/site.html?page=${guide.id}` }, { id: start.id, title: 'Start', depth: 1, url: `/public/apps/wiki/site.html?page=${start.id}` }] }]);
  const page = ok(await anonymous.get(`/wiki/site/pages/${start.id}`));
  t.is(page.html, '<p>Go on to internal or <a href="https://example.com">see</a> &lt;b&gt;x&lt;/b&gt;</p>');
  t.deepEqual(page.breadcrumbs, [{ id: guide.id, title: 'Guide', url: `/public/apps/wiki/site.html?page=${guide.id}` }]);
  for (const hidden of [secret.id, draft.id, ids.Onboarding, ids.policy]) refused(t, await anonymous.get(`/wiki/site/pages/${hidden}`), 404, `Page ${hidden} is not published`);
  const sitemap = await anonymous.get('/wiki/site/sitemap.xml');
  t.is(sitemap.status, 200);
  t.deepEqual([...text(sitemap).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.replace(/^https?:\/\/[^/]+/, '')), [`/public/apps/wiki/site.html?page=${guide.id}`, `/public/apps/wiki/site.html?page=${start.id}`]);
  t.is((await anonymous.get(`/wiki/spaces/${space2.id}/pages`)).status, 401);

  t.like(ok(await ann.delete(`/wiki/spaces/${space2.id}/publication`)), { publication: null, published_pages: 0 });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.wiki.page.unpublished']);
  refused(t, await anonymous.get(`/wiki/site/pages/${guide.id}`), 404, `Page ${guide.id} is not published`);
  refused(t, await ann.delete(`/wiki/spaces/${space2.id}/publication`), 404, 'Space Public docs is not published');
  ids.space2 = space2.id;
});

test.serial('Markdown export and import of a whole space: the tree and the links between files', async (t) => {
  const exported = ok(await carl.get(`/wiki/spaces/${ids.space}/export`));
  t.deepEqual(exported.files.map((file: { path: string }) => file.path), ['Policies.md', 'Policies/Accounts.md', 'Onboarding.md', 'Leave policy.md', 'Expenses.md', 'Carry-over.md']);
  const target = ok(await ann.post('/wiki/spaces', { name: 'Copy' }));
  world.takeEvents();
  const imported = ok(await ann.post(`/wiki/spaces/${target.id}/imports`, { files: [
    { path: 'Team/People.md', markdown: 'See [the tools](../Tools.md).\n' },
    { path: 'Tools.md', markdown: '# Tools\n' },
  ] }));
  t.deepEqual(imported.pages.map((row: { title: string }) => row.title), ['Tools', 'Team', 'People']);
  const copy = (ok(await ann.get(`/wiki/spaces/${target.id}/pages`)) as Row[]).map((row) => `${'  '.repeat(row.depth)}${row.title}`);
  t.deepEqual(copy, ['Tools', 'Team', '  People']);
  const people = imported.pages[2].id;
  t.is(ok(await ann.get(`/wiki/pages/${people}`)).markdown, `See [the tools](page:${imported.pages[0].id}).\n`);
  t.deepEqual((ok(await ann.get(`/wiki/pages/${imported.pages[0].id}/backlinks`)) as Row[]).map((row) => row.title), ['People']);
  refused(t, await ann.post(`/wiki/spaces/${target.id}/imports`, { files: [{ path: '../x.md', markdown: '' }] }), 400, 'files[0].path: ../x.md is not a relative path of a .md file');
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.wiki.page.created', 'core.wiki.page.created', 'core.wiki.page.created', 'core.wiki.page.updated']);
  t.like(ok(await ann.delete(`/wiki/spaces/${target.id}`)), { id: target.id, deleted: true });
});

test.serial('search type page: a page is found by its title and text, only by those who may read it; the tables distribute by workspace', async (t) => {
  const hits = async (member: TestMember, q: string) => ((await member.get(`/search?q=${encodeURIComponent(q)}&app=wiki`)).body.data as Array<{ url: string; title: string }>).map((hit) => hit.title);
  t.deepEqual(await hits(carl, 'Leave policy'), ['Leave policy']);
  const secret = ok(await ann.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Salary bands', restricted_to: [ann.id] }));
  t.deepEqual(await hits(ann, 'Salary bands'), ['Salary bands']);
  t.deepEqual(await hits(carl, 'Salary bands'), []);
  const outsider = await world.member(KEYS);
  t.deepEqual(await hits(outsider, 'Leave policy'), []);
  ok(await ann.delete(`/wiki/pages/${secret.id}`));
  t.deepEqual(await hits(ann, 'Salary bands'), []);
  t.deepEqual(await world.platform.distributionProblems(), []);
});

test.serial('mentions: a new page or a content change that adds a mention tells that member once (core.member.mentioned, source wiki); not the author, not one who cannot see the page, never for a refused change', async (t) => {
  const outsider = await world.member([]);
  const space = ok(await ann.post('/wiki/spaces', { name: 'Mentions', default_role: 'view' }));
  world.takeEvents();
  const mention = (who: TestMember, label: string) => ({ type: 'mention', attrs: { id: who.id, label } });
  const doc = (...paragraphs: unknown[][]) => ({ type: 'doc', content: paragraphs.map((parts) => ({ type: 'paragraph', content: parts.map((part) => (typeof part === 'string' ? { type: 'text', text: part } : part)) })) });
  const told = (who: TestMember, page: string, preview: string) => ({ action: 'core.member.mentioned', payload: { source: 'wiki', mentioned_mrn: who.mrn, mentioner_mrn: ann.mrn, resource_mrn: `mrn:wiki:page:${page}`, link: `/wiki/pages/${page}`, preview } });
  const mentions = () => world.takeEvents().filter((event) => event.action === 'core.member.mentioned');

  const asking = ['Ask ', mention(bob, 'Bob'), ', ', mention(ann, 'Ann'), ' and ', mention(outsider, 'Otto')];
  const page = ok(await ann.post(`/wiki/spaces/${space.id}/pages`, { title: 'Plan', content: doc(['Intro.'], asking) }));
  t.deepEqual(mentions(), [told(bob, page.id, 'Ask @Bob, @Ann and @Otto')], 'not the author, not a member without wiki.spaces.read');

  ok(await ann.patch(`/wiki/pages/${page.id}`, { version: 1, content: doc(['Intro, ', mention(carl, 'Carl')], asking) }));
  t.deepEqual(mentions(), [told(carl, page.id, 'Intro, @Carl')], 'only the newly mentioned member');
  ok(await ann.patch(`/wiki/pages/${page.id}`, { version: 2, content: doc(['Intro, ', mention(carl, 'Carl')], asking, ['More.']) }));
  t.deepEqual(mentions(), [], 'a change that keeps the mentions tells no one again');

  refused(t, await carl.patch(`/wiki/pages/${page.id}`, { version: 3, content: doc([mention(world.owner, 'Olga')]) }), 403, 'Your role on space Mentions is view: editing pages needs edit');
  t.deepEqual(world.takeEvents(), [], 'a refused change emits nothing');

  const hidden = ok(await ann.post(`/wiki/spaces/${space.id}/pages`, { title: 'Secret', restricted_to: [ann.id, bob.id], content: doc([mention(bob, 'Bob'), ' and ', mention(carl, 'Carl'), ' and ', mention(world.owner, 'Olga')]) }));
  t.deepEqual(mentions(), [told(bob, hidden.id, '@Bob and @Carl and @Olga'), told(world.owner, hidden.id, '@Bob and @Carl and @Olga')], 'carl does not see a page restricted to others; the workspace owner administers every space');
});

test.serial('mentions are kept: @Label in the page\'s Markdown, the space export and the search text; the editor\'s span in the published HTML; Markdown never makes one', async (t) => {
  const space = ok(await ann.post('/wiki/spaces', { name: 'Kept mentions', default_role: 'view' }));
  const content = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Ask ' }, { type: 'mention', attrs: { id: bob.id, label: 'Bob Quillfeather' } }, { type: 'text', text: ' <now>' }] }] };
  const page = ok(await ann.post(`/wiki/spaces/${space.id}/pages`, { title: 'Owners', content }));
  const read = ok(await carl.get(`/wiki/pages/${page.id}`));
  t.is(read.markdown, 'Ask @Bob Quillfeather <now>\n');
  t.deepEqual(ok(await carl.get(`/wiki/spaces/${space.id}/export`)).files, [{ path: 'Owners.md', page_id: page.id, title: 'Owners', markdown: 'Ask @Bob Quillfeather <now>\n' }]);
  const hits = (await carl.get(`/search?q=${encodeURIComponent('Quillfeather')}&app=wiki`)).body.data as Array<{ title: string }>;
  t.deepEqual(hits.map((hit) => hit.title), ['Owners']);
  ok(await ann.put(`/wiki/spaces/${space.id}/publication`, { page_id: page.id }));
  t.is(ok(await world.workspace.anonymous.get(`/wiki/site/pages/${page.id}`)).html, `<p>Ask <span data-type="mention" data-id="${bob.id}">@Bob Quillfeather</span> &lt;now&gt;</p>`);
  ok(await ann.delete(`/wiki/spaces/${space.id}/publication`));
  const typed = ok(await ann.patch(`/wiki/pages/${page.id}`, { version: 1, markdown: 'Ask @Bob Quillfeather\n' }));
  t.deepEqual(typed.content, { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Ask @Bob Quillfeather' }] }] });
  world.takeEvents();
});

/** A client's replica of a page's live document, loaded over HTTP. */
async function replica(member: TestMember, pageId: string): Promise<Y.Doc> {
  const replicaDoc = new Y.Doc();
  Y.applyUpdate(replicaDoc, Buffer.from(ok(await member.get(`/wiki/pages/${pageId}/document`)).update, 'base64'));
  return replicaDoc;
}
/** The update (base64) of one local change to a replica. */
function change(replicaDoc: Y.Doc, edit: (fragment: Y.XmlFragment) => void): string {
  const updates: Uint8Array[] = [];
  const listener = (update: Uint8Array) => updates.push(update);
  replicaDoc.on('update', listener);
  replicaDoc.transact(() => edit(replicaDoc.getXmlFragment('default')));
  replicaDoc.off('update', listener);
  return Buffer.from(Y.mergeUpdates(updates)).toString('base64');
}
const firstText = (fragment: Y.XmlFragment) => (fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText;

test.serial('live editing: a page is a Yjs document; updates are checked, stored, relayed and make new versions; a REST write is a live edit; a page from before the stack gets its document on first load', async (t) => {
  const para = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
  const page = ok(await ann.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Live', markdown: 'ab\n' }));
  // A page written before the editing stack: its JSON only, no document yet.
  await world.query(`DELETE FROM app_wiki.page_documents WHERE page_id = '${page.id}'`);
  t.deepEqual(await world.query(`SELECT page_id FROM app_wiki.page_documents WHERE page_id = '${page.id}'`), []);
  const first = ok(await carl.get(`/wiki/pages/${page.id}/document`));
  t.like(first, { page_id: page.id, role: 'view', editable: false, version: 1, content: { type: 'doc', content: [para('ab')] }, text: 'ab' });
  t.like(ok(await bob.get(`/wiki/pages/${page.id}/document`)), { role: 'edit', editable: true, update: first.update }, 'made once: every client loads the same state');

  const socket = await (await listenForSockets(world)).connect(ann);
  const channel = `wiki/pages/${page.id}`;
  t.like(await subscribeChannel(socket, channel), { type: 'subscribed' });
  world.takeEvents();
  // Only this page's events (a delayed review of an earlier page may come due meanwhile).
  const events = () => world.takeEvents().filter((event) => (event.payload as { page_id?: string }).page_id === page.id);

  const bobDoc = await replica(bob, page.id);
  const update = change(bobDoc, (fragment) => firstText(fragment).insert(1, 'X'));
  refused(t, await carl.post(`/wiki/pages/${page.id}/updates`, { update }), 403, 'Your role on space Handbook is view: editing pages needs edit');
  t.deepEqual(ok(await bob.post(`/wiki/pages/${page.id}/updates`, { update })), { page_id: page.id, applied: true, version: 2, text_length: 3 });
  t.like(await socket.until((message) => message.type === 'event'), { channel, event: 'doc.updated', data: { update, member_id: bob.id } });
  t.like(ok(await ann.get(`/wiki/pages/${page.id}`)), { version: 2, updated_by: bob.id, content: { type: 'doc', content: [para('aXb')] }, markdown: 'aXb\n' });
  t.deepEqual(events(), [{ action: 'core.wiki.page.updated', payload: { page_id: page.id, space_id: ids.space, version: 2, changed_fields: ['content'], by: bob.mrn } }]);
  t.deepEqual(ok(await bob.post(`/wiki/pages/${page.id}/updates`, { update })), { page_id: page.id, applied: false, version: 2, text_length: 3 }, 'an update already applied changes nothing');

  // A link typed live is a link by id: the target lists the page among its backlinks. Within updated_event_seconds no second event.
  const linked = change(bobDoc, (fragment) => {
    const paragraph = new Y.XmlElement('paragraph');
    const text = new Y.XmlText();
    text.insert(0, 'see accounts', { link: { href: `page:${ids.Accounts}` } });
    paragraph.insert(0, [text]);
    fragment.insert(1, [paragraph]);
  });
  t.like(ok(await bob.post(`/wiki/pages/${page.id}/updates`, { update: linked })), { applied: true, version: 3 });
  t.deepEqual(events(), []);
  t.true((ok(await ann.get(`/wiki/pages/${ids.Accounts}/backlinks`)) as Row[]).some((row) => row.id === page.id));
  t.deepEqual((ok(await ann.get(`/wiki/pages/${page.id}/versions`)) as Array<{ version: number }>).map((row) => row.version), [1], 'live edits store a version every auto_version_minutes');
  t.like(ok(await ann.get(`/wiki/pages/${page.id}/diff?from=1`)), { from: 1, to: 3, lines: [{ op: 'remove', text: 'ab' }, { op: 'add', text: 'aXb' }, { op: 'add', text: '' }, { op: 'add', text: `[see accounts](page:${ids.Accounts})` }] });

  // A bad update is refused naming the problem, and nothing is stored.
  const bad = new Y.Doc();
  Y.applyUpdate(bad, Y.encodeStateAsUpdate(bobDoc));
  refused(t, await bob.post(`/wiki/pages/${page.id}/updates`, { update: change(bad, (fragment) => fragment.insert(0, [new Y.XmlElement('script')])) }), 400, 'update: the node type "script" is not one of paragraph, heading, blockquote, bulletList, orderedList, listItem, taskList, taskItem, codeBlock, horizontalRule, hardBreak, table, tableRow, tableHeader, tableCell, mention, record');
  refused(t, await bob.post(`/wiki/pages/${page.id}/updates`, { update: 'not base64!' }), 400, 'update: must be base64');
  refused(t, await ann.patch(`/wiki/pages/${page.id}`, { version: 3, content: { type: 'doc', content: [{ type: 'image', attrs: { src: 'https://example.com/x.png' } }] } }), 400, 'content: the node type "image" is not one of paragraph, heading, blockquote, bulletList, orderedList, listItem, taskList, taskItem, codeBlock, horizontalRule, hardBreak, table, tableRow, tableHeader, tableCell, mention, record');
  t.like(ok(await ann.get(`/wiki/pages/${page.id}`)), { version: 3 });

  // A REST write names the version read (stale: 409) and reaches the live editors as one update.
  refused(t, await ann.patch(`/wiki/pages/${page.id}`, { version: 2, markdown: 'gone\n' }), 409, 'Page Live changed since you read it: you read version 2, it is now version 3');
  t.like(ok(await ann.patch(`/wiki/pages/${page.id}`, { version: 3, markdown: 'one\n\ntwo\n' })), { version: 4, content: { type: 'doc', content: [para('one'), para('two')] } });
  const relayed = await socket.until((message) => message.type === 'event' && message.data?.member_id === ann.id);
  Y.applyUpdate(bobDoc, Buffer.from(relayed.data.update, 'base64'));
  t.is(bobDoc.getXmlFragment('default').toJSON(), (await replica(ann, page.id)).getXmlFragment('default').toJSON());
  t.deepEqual(events(), [{ action: 'core.wiki.page.updated', payload: { page_id: page.id, space_id: ids.space, version: 4, changed_fields: ['content'], by: ann.mrn } }]);
  t.like(ok(await ann.get(`/wiki/pages/${page.id}/document`)), { version: 4, text: 'one\ntwo' });
  socket.close();
});

/** A Yjs relative position (base64) at `index` of a text, as the editor encodes a comment's anchor (its end sticks to the character before: assoc -1). */
const anchorAt = (text: Y.XmlText, index: number, assoc = 0) => Buffer.from(Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(text, index, assoc))).toString('base64');
/** Where an anchor's position is now in a replica (null: gone). */
const resolveAnchor = (replicaDoc: Y.Doc, position: string) => Y.createAbsolutePositionFromRelativePosition(Y.decodeRelativePosition(Buffer.from(position, 'base64')), replicaDoc)?.index ?? null;

test.serial('comments: a thread anchored to a range follows the text through edits; replies, body edits by the author, resolve and reopen, delete; view-only is 403, another space 404; mentions; live on the page channel', async (t) => {
  const [dan] = await world.members(1, KEYS);
  const space = ok(await ann.post('/wiki/spaces', { name: 'Team', default_role: 'none' }));
  ok(await ann.put(`/wiki/spaces/${space.id}/members`, { members: [{ member_id: bob.id, role: 'comment' }, { member_id: carl.id, role: 'view' }] }));
  const page = ok(await ann.post(`/wiki/spaces/${space.id}/pages`, { title: 'Plans', markdown: 'Hello world\n' }));
  ids.team = space.id;
  ids.teamPage = page.id;
  const channel = `wiki/pages/${page.id}`;
  const socket = await (await listenForSockets(world)).connect(ann);
  t.like(await subscribeChannel(socket, channel), { type: 'subscribed' });
  world.takeEvents();

  // Bob (comment role) starts a thread on "world", mentioning Ann and Carl (Dan, outside the space, is not told).
  const bobDoc = await replica(bob, page.id);
  const anchor = { from: anchorAt(firstText(bobDoc.getXmlFragment('default')), 6), to: anchorAt(firstText(bobDoc.getXmlFragment('default')), 11, -1) };
  const started = ok(await bob.post(`/wiki/pages/${page.id}/comments`, { body: `Which world, <@${carl.id}> <@${dan.id}>?`, anchor, quote: 'world' }));
  t.like(started, { page_id: page.id, thread_id: started.id, body: `Which world, <@${carl.id}> <@${dan.id}>?`, anchor, quote: 'world', author_id: bob.id, author_mrn: bob.mrn, edited_at: null, resolved_at: null, resolved_by: null });
  t.like(await socket.until((message) => message.type === 'event' && message.event === 'comment.created'), { channel, data: { id: started.id, thread_id: started.id } });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.wiki.comment.created', payload: { comment_id: started.id, page_id: page.id, space_id: space.id, thread_id: started.id, by: bob.mrn } },
    { action: 'core.member.mentioned', payload: { source: 'wiki', mentioned_mrn: carl.mrn, mentioner_mrn: bob.mrn, resource_mrn: `mrn:wiki:comment:${started.id}`, link: `/wiki/pages/${page.id}?comment=${started.id}`, preview: 'Which world, @ @?' } },
  ]);

  // Refusals name the problem and leave nothing behind.
  refused(t, await carl.post(`/wiki/pages/${page.id}/comments`, { body: 'Me too' }), 403, 'Your role on space Team is view: commenting needs comment');
  refused(t, await dan.get(`/wiki/pages/${page.id}/comments`), 404, `Page ${page.id} not found`);
  refused(t, await dan.post(`/wiki/pages/${page.id}/comments`, { body: 'Hi' }), 404, `Page ${page.id} not found`);
  refused(t, await dan.patch(`/wiki/comments/${started.id}`, { resolved: true }), 404, `Comment ${started.id} not found`);
  refused(t, await dan.delete(`/wiki/comments/${started.id}`), 404, `Comment ${started.id} not found`);
  refused(t, await bob.post(`/wiki/pages/${page.id}/comments`, { body: 'Here', anchor: { from: 'not a position', to: anchor.to } }), 400, 'anchor.from: must be a Yjs relative position (base64 of Y.encodeRelativePosition)');
  refused(t, await bob.post(`/wiki/pages/${page.id}/comments`, { body: 'Here', thread_id: page.id }), 400, `thread_id: no thread of this page starts with ${page.id}`);
  refused(t, await bob.post(`/wiki/pages/${page.id}/comments`, { body: 'Here', thread_id: started.id, anchor }), 400, "anchor: a reply takes its thread's anchor; leave it out");
  refused(t, await bob.post(`/wiki/pages/${page.id}/comments`, { body: '  ' }), 400, 'body is not allowed to be empty');
  t.deepEqual(world.takeEvents(), []);

  // Ann edits the text around the range live: the anchor still covers "world".
  const annDoc = await replica(ann, page.id);
  ok(await ann.post(`/wiki/pages/${page.id}/updates`, { update: change(annDoc, (fragment) => { firstText(fragment).insert(0, 'Oh, '); firstText(fragment).insert(15, ' and moon'); firstText(fragment).delete(8, 1); }) }));
  const now = await replica(carl, page.id);
  const text = firstText(now.getXmlFragment('default')).toString();
  t.is(text, 'Oh, Hell world and moon');
  const listed = ok(await carl.get(`/wiki/pages/${page.id}/comments`)) as Array<{ id: string; anchor: { from: string; to: string } }>;
  t.deepEqual(listed.map((row) => row.id), [started.id]);
  t.is(text.slice(resolveAnchor(now, listed[0].anchor.from)!, resolveAnchor(now, listed[0].anchor.to)!), 'world');
  world.takeEvents();

  // A reply; only its author edits a body; a commenter resolves the thread (view-only may not); the filters follow the thread.
  const reply = ok(await ann.post(`/wiki/pages/${page.id}/comments`, { body: 'Ours', thread_id: started.id }));
  t.like(reply, { thread_id: started.id, anchor: null, quote: '' });
  refused(t, await ann.patch(`/wiki/comments/${started.id}`, { body: 'Changed' }), 403, 'Only its author may edit a comment');
  refused(t, await carl.patch(`/wiki/comments/${started.id}`, { resolved: true }), 403, 'Your role on space Team is view: commenting needs comment');
  const edited = ok(await bob.patch(`/wiki/comments/${started.id}`, { body: `Which world, <@${carl.id}> <@${ann.id}>?` }));
  t.like(edited, { body: `Which world, <@${carl.id}> <@${ann.id}>?`, resolved_at: null });
  t.regex(edited.edited_at, /^2026-11-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.like(ok(await bob.patch(`/wiki/comments/${reply.id}`, { resolved: true })), { id: reply.id, resolved_at: null });
  const resolved = ok(await bob.get(`/wiki/pages/${page.id}/comments?status=resolved`));
  t.deepEqual(resolved.map((row: { id: string }) => row.id), [started.id, reply.id]);
  t.like(resolved[0], { resolved_by: bob.id });
  t.regex(resolved[0].resolved_at, /^2026-11-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.deepEqual(ok(await bob.get(`/wiki/pages/${page.id}/comments?status=open`)), []);
  t.like(ok(await bob.patch(`/wiki/comments/${started.id}`, { resolved: true })), { resolved_by: bob.id }, 'resolving a resolved thread changes nothing');
  t.like(ok(await bob.patch(`/wiki/comments/${started.id}`, { resolved: false })), { resolved_at: null, resolved_by: null });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.wiki.comment.created', payload: { comment_id: reply.id, page_id: page.id, space_id: space.id, thread_id: started.id, by: ann.mrn } },
    { action: 'core.wiki.comment.updated', payload: { comment_id: started.id, page_id: page.id, space_id: space.id, thread_id: started.id, changed_fields: ['body'], resolved: false, by: bob.mrn } },
    { action: 'core.member.mentioned', payload: { source: 'wiki', mentioned_mrn: ann.mrn, mentioner_mrn: bob.mrn, resource_mrn: `mrn:wiki:comment:${started.id}`, link: `/wiki/pages/${page.id}?comment=${started.id}`, preview: 'Which world, @ @?' } },
    { action: 'core.wiki.comment.updated', payload: { comment_id: reply.id, page_id: page.id, space_id: space.id, thread_id: started.id, changed_fields: ['resolved'], resolved: true, by: bob.mrn } },
    { action: 'core.wiki.comment.updated', payload: { comment_id: started.id, page_id: page.id, space_id: space.id, thread_id: started.id, changed_fields: ['resolved'], resolved: false, by: bob.mrn } },
  ]);

  // Deletion: the author or a space admin; a thread's first comment takes its replies.
  refused(t, await bob.delete(`/wiki/comments/${reply.id}`), 403, "Only its author or the space's admins may delete a comment");
  t.deepEqual(ok(await ann.delete(`/wiki/comments/${started.id}`)), { id: started.id, deleted: true, replies: 1 });
  t.like(await socket.until((message) => message.type === 'event' && message.event === 'comment.deleted'), { channel, data: { id: started.id } });
  t.deepEqual(ok(await bob.get(`/wiki/pages/${page.id}/comments`)), []);
  refused(t, await ann.delete(`/wiki/comments/${reply.id}`), 404, `Comment ${reply.id} not found`);
  t.deepEqual(world.takeEvents(), [{ action: 'core.wiki.comment.deleted', payload: { comment_id: started.id, page_id: page.id, space_id: space.id, thread_id: started.id, replies: 1, by: ann.mrn } }]);
  socket.close();
});

test.serial('templates: a page marked a template in its space starts new pages in any space where its reader may write', async (t) => {
  const template = ok(await ann.post(`/wiki/spaces/${ids.team}/pages`, { title: 'Meeting notes', markdown: '## Agenda\n\n## Decisions\n', template: true }));
  t.like(template, { template: true });
  world.takeEvents();
  const made = ok(await bob.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Monday', template_id: template.id }));
  t.like(made, { title: 'Monday', space_id: ids.space, template: false, version: 1, markdown: '## Agenda\n\n## Decisions\n' });
  t.deepEqual(made.content, template.content);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.wiki.page.created']);
  t.true((ok(await bob.get(`/wiki/spaces/${ids.team}/pages`)) as Array<{ id: string; template: boolean }>).some((row) => row.id === template.id && row.template));

  refused(t, await bob.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Tuesday', template_id: ids.teamPage }), 400, `template_id: page Plans (${ids.teamPage}) is not a template`);
  const missing = crypto.randomUUID();
  refused(t, await bob.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Tuesday', template_id: missing }), 400, `template_id: no template page ${missing} that you can see`);
  refused(t, await bob.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Tuesday', template_id: template.id, markdown: 'x\n' }), 400, 'Give content, markdown or template_id, not two');
  ok(await ann.put(`/wiki/spaces/${ids.team}/members`, { members: [{ member_id: carl.id, role: 'view' }] }));
  refused(t, await bob.post(`/wiki/spaces/${ids.space}/pages`, { title: 'Tuesday', template_id: template.id }), 400, `template_id: no template page ${template.id} that you can see`);
  t.deepEqual(world.takeEvents(), []);

  const unmarked = ok(await ann.patch(`/wiki/pages/${template.id}`, { template: false }));
  t.like(unmarked, { template: false, version: 1 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.wiki.page.updated', payload: { page_id: template.id, space_id: ids.team, version: 1, changed_fields: ['template'], by: ann.mrn } }]);
});

test.serial('the migration goes down and up again', async (t) => {
  t.deepEqual(await world.migrateAppDown(), ['0003-comments-and-templates', '0002-page-documents', '0001-create-wiki']);
  t.deepEqual(await world.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'app_wiki' AND table_name <> 'migrations'"), []);
  t.deepEqual(await world.migrateAppUp(), ['0001-create-wiki', '0002-page-documents', '0003-comments-and-templates']);
  t.deepEqual(ok(await ann.get('/wiki/spaces')), []);
});
