import test, { type ExecutionContext } from 'ava';
import { ok, tasksWorld } from './helpers/world.js';

const TEXT = 'must not contain NUL characters or unpaired surrogates';

/** Each case (method, path, payload, error, field) answers `status` with exactly `{"error": error}`, and `field` when given. */
async function expectRefusals(t: ExecutionContext, status: number, cases: Array<[string, string, unknown, string, string?]>): Promise<void> {
  for (const [method, url, payload, error, field] of cases) {
    const reply = await owner.request(method, url, payload);
    t.deepEqual([reply.status, reply.body], [status, field === undefined ? { error } : { error, field }], `${method} ${url} ${JSON.stringify(payload)}`);
  }
}

const world = await tasksWorld('inputs');
const owner = world.owner;
test.after.always(() => world.close());

test.serial('ids are strings: every route answers an id of any shape that names nothing with its 404', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Ids' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'T', board_id: board.id }));
  world.takeEvents();
  for (const id of ['42', '0123456789abcdef01234567', "x' OR '1'='1", '../etc/passwd']) {
    const p = encodeURIComponent(id);
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', `/boards/${p}`, undefined, `Board ${id} not found`],
      ['PUT', `/boards/${p}`, { title: 'x' }, `Board ${id} not found`],
      ['GET', `/boards/${p}/topics`, undefined, `Board ${id} not found`],
      ['PATCH', `/boards/${board.id}/topics/${p}`, { name: 'x' }, `Topic ${id} not found on board ${board.id}`],
      ['DELETE', `/boards/${board.id}/topics/${p}`, undefined, `Topic ${id} not found on board ${board.id}`],
      ['PATCH', `/boards/${board.id}/members/${p}`, { role: 'viewer' }, `Member ${id} is not a member of board ${board.id}`],
      ['DELETE', `/boards/${board.id}/members/${p}`, undefined, `Member ${id} is not a member of board ${board.id}`],
      ['DELETE', `/boards/${board.id}/tasks/${p}`, undefined, `Task ${id} not found`],
      ['GET', `/tasks/${p}`, undefined, `Task ${id} not found`],
      ['PATCH', `/tasks/${p}`, { title: 'x' }, `Task ${id} not found`],
      ['POST', `/tasks/${p}/completion`, undefined, `Task ${id} not found`],
      ['GET', `/tasks/${p}/comments`, undefined, `Task ${id} not found`],
      ['DELETE', `/tasks/${task.id}/assignees/${p}`, undefined, `Member ${id} is not assigned to task ${task.id}`],
      ['POST', `/tasks/${task.id}/deliverables/${p}/delivery`, undefined, `Deliverable ${id} not found on task ${task.id}`],
      ['DELETE', `/views/${p}`, undefined, `View ${id} not found`],
      ['GET', `/schedules/${p}`, undefined, `Schedule ${id} not found`],
      ['PUT', `/tasks/${task.id}/board`, { board_id: id }, `Board ${id} not found`],
    ];
    await expectRefusals(t, 404, cases);
  }
  t.deepEqual(world.takeEvents(), []);
});

test.serial('blank names (spaces and a tab) of schedules, views, topics and lanes are a 400 naming the field; names are kept trimmed', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Names' }));
  const schedule = await ok(owner.request('POST', '/schedules', { name: '  Sprint 1 ' }));
  t.is(schedule.name, 'Sprint 1');
  const topic = await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: ' Design\t' }));
  t.is(topic.name, 'Design');
  const view = await ok(owner.request('POST', '/views', { board_id: board.id, name: ' Mine ', tab: 'list' }));
  t.is(view.name, 'Mine');
  world.takeEvents();
  const blank = '  \t ';
  const cases: Array<[string, string, unknown, string, string]> = [
    ['POST', '/schedules', { name: blank }, 'name is not allowed to be empty', 'name'],
    ['PATCH', `/schedules/${schedule.id}`, { name: blank }, 'name is not allowed to be empty', 'name'],
    ['POST', '/views', { board_id: board.id, name: blank, tab: 'list' }, 'name is not allowed to be empty', 'name'],
    ['POST', `/boards/${board.id}/topics`, { name: blank }, 'name is not allowed to be empty', 'name'],
    ['PATCH', `/boards/${board.id}/topics/${topic.id}`, { name: blank }, 'name is not allowed to be empty', 'name'],
    ['PATCH', `/boards/${board.id}/columns`, { old_name: 'To do', new_name: blank }, 'new_name is not allowed to be empty', 'new_name'],
  ];
  await expectRefusals(t, 400, cases);
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual((await ok(owner.request('GET', `/boards/${board.id}/topics`))).map((row: { name: string }) => row.name), ['Design']);
});

test.serial('NUL and unpaired surrogates in names, lanes, titles and path ids are a 400 naming the field; blank titles too', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Text' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'T', board_id: board.id }));
  world.takeEvents();
  const cases: Array<[string, string, unknown, string, string]> = [
    ['PUT', `/boards/${board.id}`, { lanes: ['To do', 'Do\u0000ne'] }, `lanes[1] ${TEXT}`, 'lanes[1]'],
    ['PUT', `/boards/${board.id}`, { title: '   ' }, 'title is not allowed to be empty', 'title'],
    ['PATCH', `/boards/${board.id}/columns`, { old_name: 'To do', new_name: '\ud800' }, `new_name ${TEXT}`, 'new_name'],
    ['POST', `/boards/${board.id}/topics`, { name: 'a\u0000' }, `name ${TEXT}`, 'name'],
    ['POST', '/schedules', { name: 'S\udfff' }, `name ${TEXT}`, 'name'],
    ['POST', '/views', { board_id: board.id, name: 'v\u0000', tab: 'list' }, `name ${TEXT}`, 'name'],
    ['PATCH', `/tasks/${task.id}`, { title: '  ' }, 'title is not allowed to be empty', 'title'],
    ['PATCH', `/tasks/${task.id}`, { lane: 'To do\u0000' }, `lane ${TEXT}`, 'lane'],
    ['POST', `/tasks/${task.id}/comments`, { body: 'hi\ud800' }, `body ${TEXT}`, 'body'],
    ['POST', `/tasks/${task.id}/deliverables`, { title: ' ' }, 'title is not allowed to be empty', 'title'],
    ['GET', '/tasks/a%00b', undefined, `path parameter id ${TEXT}`, 'id'],
    ['GET', '/tasks?q=%00', undefined, `query parameter q ${TEXT}`, 'q'],
    ['POST', '/schedules', { name: 'S', start_date: '2026-02-29' }, 'start_date must be a real date in YYYY-MM-DD form', 'start_date'],
  ];
  await expectRefusals(t, 400, cases);
  t.deepEqual(world.takeEvents(), []);
  t.like(await ok(owner.request('GET', `/boards/${board.id}`)), { title: 'Text', lanes: ['To do', 'In progress', 'Done'] });
});
