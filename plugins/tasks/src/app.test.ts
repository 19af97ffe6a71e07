import test from 'ava';
import { validateApp } from '@wpk/sdk';
import { compileJsonSchema, formatManifestProblem, routeKey, validateManifest } from '@wpk/sdk/tooling';
import manifest from '../app.json' with { type: 'json' };
import app from './index.js';
import type { TasksEventPayloads } from './services/events.js';

test('the manifest is valid for a first-party app, cross-checked against the code', (t) => {
  t.deepEqual(validateApp(app, { firstParty: true, file: 'plugins/tasks/app.json' }).map(formatManifestProblem), []);
});

test('the manifest alone passes wpk validate', (t) => {
  t.deepEqual(validateManifest(manifest, { firstParty: true }).map(formatManifestProblem), []);
});

test('loaded as a third-party app the manifest is refused: it emits core.* and has no publisher', (t) => {
  const problems = validateManifest(manifest, { firstParty: false }).map((problem) => problem.path);
  t.true(problems.includes('publisher'));
  t.true(problems.includes('events[0].action'));
});

test('every core.tasks.* event of the catalog is declared, with the catalog fields as its schema properties', (t) => {
  const catalog: Record<string, string[]> = {
    'core.tasks.task.created': ['task_id', 'board_id', 'title', 'creator_mrn', 'source_mrn'],
    'core.tasks.task.updated': ['task_id', 'changed_fields'],
    'core.tasks.task.assigned': ['task_id', 'assignee_mrn', 'assigned_by'],
    'core.tasks.task.unassigned': ['task_id', 'assignee_mrn'],
    'core.tasks.task.completed': ['task_id', 'board_id', 'completed_by', 'title', 'source_mrn'],
    'core.tasks.task.deleted': ['task_id', 'deleted_by'],
    'core.tasks.task.bulk_deleted': ['task_ids', 'deleted_by'],
    'core.tasks.task.moved': ['task_id', 'from_board', 'to_board'],
    'core.tasks.task.commented': ['task_id', 'comment_id', 'commenter_mrn'],
    'core.tasks.task.pulled': ['task_id', 'pulled_by'],
    'core.tasks.task.returned': ['task_id', 'returned_by'],
    'core.tasks.member.released': ['member_mrn', 'unassigned'],
    'core.tasks.board.created': ['board_id', 'name', 'creator_mrn'],
    'core.tasks.board.deleted': ['board_id', 'deleted_by'],
    'core.tasks.board.archived': ['board_id'],
    'core.tasks.board.cleared': ['board_id'],
    'core.tasks.topic.created': ['topic_id', 'board_id', 'name', 'created_by'],
    'core.tasks.topic.updated': ['topic_id', 'board_id', 'name', 'previous_name', 'fields', 'updated_by'],
    'core.tasks.topic.deleted': ['topic_id', 'board_id', 'name', 'deleted_by'],
    'core.tasks.schedule.created': ['schedule_id'],
    'core.tasks.schedule.updated': ['schedule_id'],
    'core.tasks.schedule.completed': ['schedule_id'],
    'core.tasks.deliverable.delivered': ['deliverable_id'],
  };
  const declared = Object.fromEntries(manifest.events.map((event) => [event.action, Object.keys(event.schema.properties)]));
  t.deepEqual(declared, catalog);
});

const member = '8d3f0c52-6a43-4a55-9d1e-0b8f7f7b1a01';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** One payload per action exactly as the services build them (the type map keeps them honest). */
const samples: { [A in keyof TasksEventPayloads]: TasksEventPayloads[A] } = {
  'core.tasks.task.created': { task_id: uuid(1), board_id: uuid(2), title: 'Write the spec', creator_mrn: `mrn:account:member:${member}`, source_mrn: `mrn:crm:deal:${uuid(9)}` },
  'core.tasks.task.updated': { task_id: uuid(1), changed_fields: ['due_date', 'blocked_by'] },
  'core.tasks.task.assigned': { task_id: uuid(1), assignee_mrn: `mrn:account:member:${member}`, assigned_by: member },
  'core.tasks.task.unassigned': { task_id: uuid(1), assignee_mrn: `mrn:account:member:${member}` },
  'core.tasks.task.completed': { task_id: uuid(1), board_id: uuid(2), completed_by: member, title: 'Write the spec', source_mrn: `mrn:crm:deal:${uuid(9)}` },
  'core.tasks.task.deleted': { task_id: uuid(1), deleted_by: member },
  'core.tasks.task.bulk_deleted': { task_ids: [uuid(1), uuid(3)], deleted_by: member },
  'core.tasks.task.moved': { task_id: uuid(1), from_board: uuid(2), to_board: uuid(4) },
  'core.tasks.task.commented': { task_id: uuid(1), comment_id: uuid(5), commenter_mrn: `mrn:account:member:${member}` },
  'core.tasks.task.pulled': { task_id: uuid(1), pulled_by: member },
  'core.tasks.task.returned': { task_id: uuid(1), returned_by: member },
  'core.tasks.member.released': { member_mrn: `mrn:account:member:${member}`, unassigned: 2 },
  'core.tasks.board.created': { board_id: uuid(2), name: 'Launch', creator_mrn: `mrn:account:member:${member}` },
  'core.tasks.board.deleted': { board_id: uuid(2), deleted_by: member },
  'core.tasks.board.archived': { board_id: uuid(2) },
  'core.tasks.board.cleared': { board_id: uuid(2) },
  'core.tasks.topic.created': { topic_id: uuid(6), board_id: uuid(2), name: 'Design', created_by: member },
  'core.tasks.topic.updated': { topic_id: uuid(6), board_id: uuid(2), name: 'UX', previous_name: 'Design', fields: ['name'], updated_by: member },
  'core.tasks.topic.deleted': { topic_id: uuid(6), board_id: uuid(2), name: 'UX', deleted_by: member },
  'core.tasks.schedule.created': { schedule_id: uuid(7) },
  'core.tasks.schedule.updated': { schedule_id: uuid(7) },
  'core.tasks.schedule.completed': { schedule_id: uuid(7) },
  'core.tasks.deliverable.delivered': { deliverable_id: uuid(8) },
};

test('the payload each service builds satisfies the schema the manifest declares', (t) => {
  for (const event of manifest.events) {
    const compiled = compileJsonSchema(event.schema);
    if ('error' in compiled) return t.fail(`${event.action}: ${compiled.error}`);
    const sample = samples[event.action as keyof TasksEventPayloads];
    t.true(compiled.validate(sample), `${event.action}: ${JSON.stringify(compiled.validate.errors)}`);
    t.false(compiled.validate({ ...sample, extra: 1 }), `${event.action} refuses unknown fields`);
  }
});

test('a task created in the incubator has no board_id: the null is dropped before validation and the schema allows that', (t) => {
  const created = manifest.events.find((event) => event.action === 'core.tasks.task.created')!;
  const compiled = compileJsonSchema(created.schema);
  if ('error' in compiled) return t.fail(compiled.error);
  t.true(compiled.validate({ task_id: uuid(1), title: 'Idea', creator_mrn: `mrn:account:member:${member}` }));
});

test('DELETE /tasks/{id} lets the creator through, else tasks.tasks.delete, else "Cannot delete this task"', (t) => {
  const entry = manifest.authorization.find((row) => routeKey(row.method, row.path) === routeKey('DELETE', '/tasks/{id}'));
  t.deepEqual(entry?.chain, [{ any_of: [{ check: 'task_creator' }, 'tasks.tasks.delete'], message: 'Cannot delete this task' }]);
});

test('POST /tasks needs tasks.tasks.create and reading tasks needs tasks.tasks.read (the specification example)', (t) => {
  const chain = (method: string, path: string) => manifest.authorization.find((row) => row.method === method && row.path === path)?.chain;
  t.deepEqual(chain('POST', '/tasks'), ['tasks.tasks.create']);
  t.deepEqual(chain('GET', '/tasks'), ['tasks.tasks.read']);
  t.deepEqual(chain('GET', '/tasks/{id}'), ['tasks.tasks.read']);
});

test('the settings defaults are what a fresh install uses', (t) => {
  t.deepEqual(manifest.settings.defaults, { default_lanes: ['To do', 'In progress', 'Done'], default_priority: 'none', max_assignees: 10 });
});
