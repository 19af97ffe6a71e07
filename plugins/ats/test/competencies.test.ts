/**
 * Recruiting's evaluation criteria name Growth's competencies by `competency_mrn`: the app keeps a
 * copy of them fed by `core.growth.competency.created|updated|deleted` (the real Growth app emits
 * them here) and refuses a criterion naming an MRN the copy does not know.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld } from '@wpk/testing';

const world = await startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), apps: [fileURLToPath(new URL('../../growth', import.meta.url))], subdomain: 'atscompetencies', firstParty: ['ats', 'growth'] });
await world.workspace.install('growth');
const recruiter = await world.member(['ats.*', 'growth.competencies.read', 'growth.competencies.create', 'growth.competencies.edit', 'growth.competencies.delete']);
test.after.always(async () => world.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const copy = async () => world.query<{ id: string; name: string; revision: number; deleted: boolean }>('SELECT id, name, revision, deleted FROM app_ats.competencies WHERE workspace_id = :id ORDER BY name', { id: world.workspaceId });
const stageCount = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_ats.stages WHERE workspace_id = :id', { id: world.workspaceId }))[0].n;

test.serial('the copy follows Growth: created, renamed, deleted (a tombstone), a stale delivery ignored; a criterion must name a known competency', async (t) => {
  const comm = ok(await recruiter.post('/growth/competencies', { name: 'Communication', levels: ['Explains own work', 'Explains to other teams'] }));
  const craft = ok(await recruiter.post('/growth/competencies', { name: 'Craft', levels: ['Learns'] }));
  await world.platform.deliverDue();
  t.deepEqual(await copy(), [{ id: comm.id, name: 'Communication', revision: 1, deleted: false }, { id: craft.id, name: 'Craft', revision: 1, deleted: false }]);
  ok(await recruiter.patch(`/growth/competencies/${comm.id}`, { name: 'Clear communication' }));
  await world.platform.deliverDue();
  t.like((await copy()).find((row) => row.id === comm.id), { name: 'Clear communication', revision: 2 });
  await world.deliver('core.growth.competency.created', { competency_id: comm.id, mrn: comm.mrn, name: 'Communication', levels: comm.levels, revision: 1 });
  t.like((await copy()).find((row) => row.id === comm.id), { name: 'Clear communication', revision: 2 }, 'an older revision changes nothing');

  const pipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Engineering' }));
  const path = `/ats/pipelines/${pipeline.id}/stages`;
  const stage = ok(await recruiter.post(path, { name: 'Onsite', type: 'interview', criteria: [{ label: 'Explains', key: 'explains', competency_mrn: comm.mrn }, { label: 'Code', key: 'code' }] }));
  t.deepEqual(stage.criteria.map((criterion: any) => [criterion.key, criterion.competency_mrn]), [['explains', comm.mrn], ['code', undefined]]);

  ok(await recruiter.delete(`/growth/competencies/${craft.id}`));
  await world.platform.deliverDue();
  t.like((await copy()).find((row) => row.id === craft.id), { revision: 2, deleted: true });
  await world.deliver('core.growth.competency.updated', { competency_id: craft.id, mrn: craft.mrn, name: 'Craft', levels: craft.levels, revision: 1, changed_fields: ['name'] });
  t.like((await copy()).find((row) => row.id === craft.id), { revision: 2, deleted: true }, 'a late delivery does not bring a deleted competency back');

  const before = await stageCount();
  world.takeEvents();
  const cases: Array<[unknown, string]> = [
    [`mrn:growth:competency:${UNKNOWN}`, `criteria[1].competency_mrn mrn:growth:competency:${UNKNOWN} is not a competency of this workspace`],
    [craft.mrn, `criteria[1].competency_mrn ${craft.mrn} is not a competency of this workspace (Craft was deleted)`],
    [`mrn:growth:goal:${comm.id}`, `criteria[1].competency_mrn mrn:growth:goal:${comm.id} is not a competency MRN (mrn:growth:competency:{id})`],
  ];
  for (const [mrn, error] of cases) {
    const reply = await recruiter.post(path, { name: 'Panel', type: 'interview', criteria: [{ label: 'Fine', key: 'fine', competency_mrn: comm.mrn }, { label: 'Bad', key: 'bad', competency_mrn: mrn }] });
    t.deepEqual([reply.status, reply.body], [400, { error, field: 'criteria[1].competency_mrn' }], String(mrn));
  }
  t.is(await stageCount(), before, 'a refused stage writes nothing');
  t.deepEqual(world.takeEvents(), [], 'and emits nothing');
});
