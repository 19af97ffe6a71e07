import test from 'ava';
import { defineApp, defineRoute, Joi } from '@wpk/sdk';
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '../src/index.js';

// ctx.members and member references: every person an app's input names is a member of the
// request's workspace, checked by the platform before the handler, against the directory as it
// is now (a member who joined a moment ago passes; one removed a moment ago does not).

const USE = 'ext.test.crew.crews.use';
const routes = [
  defineRoute({
    method: 'POST',
    path: '/crews',
    chain: [USE],
    description: 'Assigns people to a crew',
    validate: {
      payload: Joi.object({
        name: Joi.string().required(),
        assignees: Joi.array().items(Joi.memberId()).max(10),
        lead_mrn: Joi.memberMrn(),
        handed_over_from_mrn: Joi.memberMrn({ former: true }),
      }),
    },
    handler: (request, ctx) => {
      ctx.events.stage('ext.test.crew.crew.formed', { name: String(request.payload.name) });
      return ctx.respond.single({ formed: true });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/directory',
    chain: [USE],
    validate: { query: Joi.object({ q: Joi.string(), page: Joi.any(), per_page: Joi.any() }) },
    handler: async (request, ctx) => {
      const { rows, count } = await ctx.members.list({ q: request.query.q as string | undefined, offset: ctx.page.offset, limit: ctx.page.limit });
      return ctx.respond.collection(rows, count);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/crews/{name}/members/{member_mrn}',
    chain: [USE],
    description: 'Takes someone, present or former, off a crew',
    validate: { params: Joi.object({ name: Joi.string().required(), member_mrn: Joi.memberMrn({ former: true }).required() }) },
    handler: (request, ctx) => ctx.respond.single({ removed: request.params.member_mrn }),
  }),
  defineRoute({
    method: 'GET',
    path: '/directory/{member}',
    chain: [USE],
    handler: async (request, ctx) => ctx.respond.single(await ctx.members.get(request.params.member)),
  }),
  defineRoute({
    method: 'POST',
    path: '/checks',
    chain: [USE],
    validate: { payload: Joi.object({ ids: Joi.array().items(Joi.string()).required() }) },
    handler: async (request, ctx) => ctx.respond.single({ found: [...(await ctx.members.require(request.payload.ids as string[], 'ids')).keys()].sort() }),
  }),
];

const app = defineApp(
  {
    slug: 'crew',
    publisher: 'test',
    name: 'Crew',
    version: '1.0.0',
    permissions: [{ key: USE, label: 'Use crews', category: 'Crews' }],
    authorization: routes.map(({ method, path, chain, description }) => ({ method, path, chain, ...(description ? { description } : {}) })),
    events: [{ action: 'ext.test.crew.crew.formed', description: 'A crew was formed', schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } }],
  },
  { routes },
);

let platform: TestPlatform;
let ws: TestWorkspace;
let other: TestWorkspace;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  platform = await createTestPlatform({ apps: [app] });
  ws = await platform.workspace('crewhome');
  other = await platform.workspace('crewelse');
  await ws.install('ext.test.crew', { access_policy: 'everyone' });
  ann = await ws.member({ name: 'Ann Able', permissions: [USE] });
  bob = await ws.member({ name: 'Bob Baker', permissions: [USE] });
});
test.after.always(() => platform?.close());

const formed = () => platform.takeEvents().filter((event) => event.action === 'ext.test.crew.crew.formed').length;

test.serial('members of the workspace pass; any other id is a 400 naming the field, and nothing is emitted', async (t) => {
  platform.takeEvents();
  const ok = await ann.post('/ext/test/crew/crews', { name: 'A', assignees: [ann.id, bob.id.toUpperCase()], lead_mrn: bob.mrn });
  t.is(ok.status, 200);
  t.is(formed(), 1);

  const stranger = '0b9f6a3e-5a86-4d5e-9b59-3c1d4f1e2a7b';
  const outsider = other.owner;
  const refusals: Array<[object, string, string?]> = [
    [{ assignees: [ann.id, stranger] }, `assignees ${stranger} is not a member of this workspace`],
    [{ assignees: [outsider.id] }, `assignees ${outsider.id} is not a member of this workspace`],
    [{ lead_mrn: outsider.mrn }, `lead_mrn ${outsider.mrn} is not a member of this workspace`],
    [{ assignees: ['not-an-id'] }, 'assignees[0] must be the id of a member of this workspace', 'assignees[0]'],
  ];
  for (const [fields, error, field] of refusals) {
    const response = await ann.post('/ext/test/crew/crews', { name: 'B', ...fields });
    t.deepEqual([response.status, response.body], [400, field === undefined ? { error } : { error, field }], JSON.stringify(fields));
  }
  t.is(formed(), 0, 'no refused request emitted anything');
});

test.serial('a member who joined a moment ago is found at once; one removed a moment ago is refused, except where a field takes former members', async (t) => {
  const newcomer = await ws.member({ name: 'Cleo New' });
  t.is((await ann.post('/ext/test/crew/crews', { name: 'C', assignees: [newcomer.id] })).status, 200);

  t.is((await ws.owner.delete(`/members/${newcomer.id}`)).status, 200);
  const removed = await ann.post('/ext/test/crew/crews', { name: 'D', lead_mrn: newcomer.mrn });
  t.deepEqual([removed.status, removed.body], [400, { error: `lead_mrn ${newcomer.mrn} is no longer a member of this workspace` }]);
  t.is((await ann.post('/ext/test/crew/crews', { name: 'E', handed_over_from_mrn: newcomer.mrn })).status, 200, 'a field declared { former: true } takes them');
  t.is((await ann.delete(`/ext/test/crew/crews/A/members/${encodeURIComponent(newcomer.mrn)}`)).status, 200, 'a path parameter taking former members takes them');
  const stranger = 'mrn:account:member:0b9f6a3e-5a86-4d5e-9b59-3c1d4f1e2a7b';
  const inPath = await ann.delete(`/ext/test/crew/crews/A/members/${encodeURIComponent(stranger)}`);
  t.deepEqual([inPath.status, inPath.body], [400, { error: `path parameter member_mrn ${stranger} is not a member of this workspace` }], 'named as the validation errors name a path parameter');
  const required = await ann.post('/ext/test/crew/checks', { ids: [ann.mrn, newcomer.id] });
  t.deepEqual([required.status, required.body], [400, { error: `ids ${newcomer.id} is no longer a member of this workspace` }]);
  t.deepEqual((await ann.post('/ext/test/crew/checks', { ids: [ann.mrn, bob.id] })).body.data, { found: [ann.id, bob.id].sort() });
});

test.serial('ctx.members reads the directory: one member by id or MRN, and the active members by name, matching q', async (t) => {
  const read = await ann.get(`/ext/test/crew/directory/${bob.mrn}`);
  t.deepEqual(read.body.data, { id: bob.id, mrn: bob.mrn, name: 'Bob Baker', email: bob.email, platform_role: 'member', active: true });
  t.is((await ann.get(`/ext/test/crew/directory/${other.owner.id}`)).body.data, null, 'a member of another workspace is nobody here');

  const all = await ann.get('/ext/test/crew/directory?per_page=2');
  t.deepEqual(all.body.pagination, { page: 1, per_page: 2, total: 3, pages: 2 }, 'the owner, Ann and Bob; the removed member is not listed');
  t.deepEqual(all.body.data.map((member: { name: string }) => member.name), ['Ann Able', 'Bob Baker']);
  const matching = await ann.get('/ext/test/crew/directory?q=bak');
  t.deepEqual(matching.body.data.map((member: { id: string }) => member.id), [bob.id]);
});
