import test from 'ava';
import type { Board, Task } from './models/index.js';
import { boardDocument, taskDocument } from './search.js';

const at = new Date('2026-11-21T00:00:00Z');
const board: Board = { id: 'b1', title: 'Roadmap', description: 'Plans', is_template: false, template_id: null, grid: {}, lanes: ['To do'], creator_id: 'm1', archived_at: null, created_at: at, updated_at: at };
const task = (id: string, boardId: string | null, number = 7): Task => ({
  id, number, key: `ACME-${number}`, title: `Task ${id}`, description: 'Details', board_id: boardId, lane: null, topic_id: null, schedule_id: null, priority: 'none', start_date: null, due_date: null, blocked_by: null, source_mrn: null,
  creator_id: 'm1', completed_at: null, completed_by: null, created_at: at, updated_at: at,
});

// The re-index hooks run against a real platform in test/search.test.ts (an emptied index rebuilt).

test('a board document names the board by title, with its description as detail', (t) => {
  t.deepEqual(boardDocument(board), { type: 'board', id: 'b1', title: 'Roadmap', subtitle: 'Board', url: '/boards/b1', names: ['Roadmap'], details: ['Plans'], filters: { is_template: false } });
});

test('a task document names the task by title, its description as detail, its board (or the incubator) as subtitle, its key as badge', (t) => {
  t.is(taskDocument(task('t1', 'b1', 42), 'Roadmap').badge, 'ACME-42');
  t.is(taskDocument(task('t1', 'b1'), 'Roadmap').subtitle, 'Roadmap');
  t.is(taskDocument(task('t2', null), null).subtitle, 'Incubator');
  t.deepEqual(taskDocument(task('t1', 'b1'), 'Roadmap').names, ['Task t1']);
  t.deepEqual(taskDocument(task('t1', 'b1'), 'Roadmap').details, ['Details']);
});
