import test from 'ava';
import fc from 'fast-check';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';

let world: World;
let admin: TestMember;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'departments' });
  admin = await world.member(['workers.departments.read', 'workers.departments.create', 'workers.departments.edit', 'workers.departments.delete', 'workers.workers.create', 'workers.workers.edit']);
});
test.after.always(() => world?.close());

const departmentRows = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_workers.departments WHERE workspace_id = :id', { id: world.workspaceId }))[0].n;

test.serial('departments form a tree with a head; rename, head change and move each emit their event once', async (t) => {
  world.takeEvents();
  const company = ok(await admin.post('/workers/departments', { name: 'Company' }));
  t.like(company, { mrn: `mrn:workers:department:${company.id}`, name: 'Company', parent_id: null, head_id: null, worker_count: 0, revision: 1 });
  const head = ok(await admin.post('/workers', { name: 'Head Person', work_email: 'head@example.test' }));
  const eng = ok(await admin.post('/workers/departments', { name: 'Engineering', parent_id: company.id, head_id: head.id }));
  const ops = ok(await admin.post('/workers/departments', { name: 'Operations', parent_id: company.id }));
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.name ?? null]), [
    ['core.workers.department.created', 'Company'],
    ['core.workers.worker.hired', 'Head Person'],
    ['core.workers.department.created', 'Engineering'],
    ['core.workers.department.created', 'Operations'],
  ]);
  const renamed = ok(await admin.patch(`/workers/departments/${eng.id}`, { name: 'R&D' }));
  t.like(renamed, { name: 'R&D', revision: 2, head_id: head.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.workers.department.updated', payload: { department_id: eng.id, mrn: eng.mrn, name: 'R&D', parent_id: company.id, head_id: head.id, revision: 2, changed_fields: ['name'], by: admin.mrn } }]);
  const moved = ok(await admin.patch(`/workers/departments/${eng.id}`, { parent_id: ops.id }));
  t.is(moved.parent_id, ops.id);
  t.deepEqual(world.takeEvents(), [{ action: 'core.workers.department.moved', payload: { department_id: eng.id, mrn: eng.mrn, name: 'R&D', parent_id: ops.id, head_id: head.id, revision: 3, from_parent_id: company.id, by: admin.mrn } }]);
  ok(await admin.patch(`/workers/departments/${eng.id}`, { parent_id: ops.id }));
  t.deepEqual(world.takeEvents(), [], 'a move to where it is changes nothing');
  const top = await admin.get('/workers/departments?parent_id=top');
  t.deepEqual(top.body.data.map((d: any) => d.name), ['Company']);
  const children = await admin.get(`/workers/departments?parent_id=${company.id}`);
  t.deepEqual(children.body.data.map((d: any) => d.name), ['Operations']);
});

test.serial('departments are found by name in search (type department), renamed with the record and gone with it', async (t) => {
  const sought = ok(await admin.post('/workers/departments', { name: 'Quantum Research' }));
  const found = async (q: string) => (ok(await admin.post('/search', { app: 'workers', q, types: ['department'] })) as Array<{ title: string; url: string }>).map((hit) => [hit.title, hit.url]);
  t.deepEqual(await found('quantum'), [['Quantum Research', `/?department_id=${sought.id}`]]);
  ok(await admin.patch(`/workers/departments/${sought.id}`, { name: 'Photonics Lab' }));
  t.deepEqual([await found('quantum'), await found('photonics')], [[], [['Photonics Lab', `/?department_id=${sought.id}`]]]);
  ok(await admin.delete(`/workers/departments/${sought.id}`));
  t.deepEqual(await found('photonics'), []);
  world.takeEvents();
});

test.serial('a move making a cycle is 409 naming the department; bad references are 400 naming the field; nothing changes', async (t) => {
  const a = ok(await admin.post('/workers/departments', { name: 'A' }));
  const b = ok(await admin.post('/workers/departments', { name: 'B', parent_id: a.id }));
  const c = ok(await admin.post('/workers/departments', { name: 'C', parent_id: b.id }));
  world.takeEvents();
  const before = await departmentRows();
  const cycle = await admin.patch(`/workers/departments/${a.id}`, { parent_id: c.id });
  t.deepEqual(cycle.body, { error: `Moving department ${a.id} under C (${c.id}) would make a cycle: C is inside it`, field: 'parent_id' });
  t.is(cycle.status, 409);
  const self = await admin.patch(`/workers/departments/${a.id}`, { parent_id: a.id });
  t.deepEqual([self.status, self.body], [409, { error: `Department ${a.id} cannot be its own parent`, field: 'parent_id' }]);
  const unknownParent = await admin.post('/workers/departments', { name: 'X', parent_id: UNKNOWN });
  t.deepEqual([unknownParent.status, unknownParent.body], [400, { error: `parent_id ${UNKNOWN} is not a department of this workspace`, field: 'parent_id' }]);
  const unknownHead = await admin.patch(`/workers/departments/${a.id}`, { head_id: UNKNOWN });
  t.deepEqual([unknownHead.status, unknownHead.body], [400, { error: `head_id ${UNKNOWN} is not a worker of this workspace`, field: 'head_id' }]);
  const blank = await admin.post('/workers/departments', { name: '  ' });
  t.is(blank.status, 400);
  t.is(blank.body.field, 'name');
  t.is((await admin.patch(`/workers/departments/${UNKNOWN}`, { name: 'Y' })).status, 404);
  t.is(await departmentRows(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a department with workers or sub-departments cannot be deleted (409); an empty one can', async (t) => {
  const parent = ok(await admin.post('/workers/departments', { name: 'Parent' }));
  const child = ok(await admin.post('/workers/departments', { name: 'Child', parent_id: parent.id }));
  const worker = ok(await admin.post('/workers', { name: 'Staff', work_email: 'staff@example.test', department_id: child.id }));
  world.takeEvents();
  const withChild = await admin.delete(`/workers/departments/${parent.id}`);
  t.deepEqual([withChild.status, withChild.body.error], [409, `Department ${parent.id} (Parent) has 1 sub-department(s); move or delete them first`]);
  const withStaff = await admin.delete(`/workers/departments/${child.id}`);
  t.deepEqual([withStaff.status, withStaff.body.error], [409, `Department ${child.id} (Child) has 1 worker(s); move them first`]);
  t.is(ok(await admin.get(`/workers/departments?parent_id=${parent.id}`))[0].worker_count, 1);
  t.deepEqual(world.takeEvents(), []);
  ok(await admin.patch(`/workers/${worker.id}`, { department_id: null }));
  world.takeEvents();
  t.deepEqual(ok(await admin.delete(`/workers/departments/${child.id}`)), { id: child.id, mrn: child.mrn, deleted: true });
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.department_id, e.payload.revision]), [['core.workers.department.deleted', child.id, 2]]);
});

/** The parent of every department of the workspace, by id. */
async function parents(): Promise<Map<string, string | null>> {
  const rows = await world.query<{ id: string; parent_id: string | null }>('SELECT id, parent_id FROM app_workers.departments WHERE workspace_id = :id', { id: world.workspaceId });
  return new Map(rows.map((row) => [row.id, row.parent_id]));
}

/** True when following parents from some department comes back to it. */
function hasCycle(tree: Map<string, string | null>): boolean {
  for (const start of tree.keys()) {
    const seen = new Set<string>();
    for (let at: string | null = start; at; at = tree.get(at) ?? null) {
      if (seen.has(at)) return true;
      seen.add(at);
    }
  }
  return false;
}

test.serial('two moves racing to put A under B and B under A: one passes, the other is 409', async (t) => {
  for (let round = 0; round < 5; round += 1) {
    const a = ok(await admin.post('/workers/departments', { name: `Race A${round}` }));
    const b = ok(await admin.post('/workers/departments', { name: `Race B${round}` }));
    const answers = await Promise.all([admin.patch(`/workers/departments/${a.id}`, { parent_id: b.id }), admin.patch(`/workers/departments/${b.id}`, { parent_id: a.id })]);
    t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409], JSON.stringify(answers.map((answer) => answer.body)));
  }
  t.false(hasCycle(await parents()));
});

test.serial('property: concurrent random moves never leave a cycle; each answers 200 or 409', async (t) => {
  const ids: string[] = [];
  for (let i = 0; i < 6; i += 1) ids.push(ok(await admin.post('/workers/departments', { name: `Prop ${i}` })).id);
  const move = fc.record({ department: fc.nat({ max: 5 }), parent: fc.option(fc.nat({ max: 5 }), { nil: null }) });
  await fc.assert(
    fc.asyncProperty(fc.array(move, { minLength: 2, maxLength: 8 }), async (moves) => {
      const answers = await Promise.all(moves.map(({ department, parent }) => admin.patch(`/workers/departments/${ids[department]}`, { parent_id: parent === null ? null : ids[parent] })));
      for (const answer of answers) if (answer.status !== 200 && answer.status !== 409) return false;
      return !hasCycle(await parents());
    }),
    { numRuns: 25, seed: 20261129 },
  );
  t.false(hasCycle(await parents()));
});
