import test from 'ava';
import { createTestPlatform } from '@wpk/testing';
import app from '../src/index.js';

// Strict mode runs the app's work under a database role that reaches only app_tasks: the app
// must need nothing else (its foreign keys to platform.workspaces are checked as the table owner).
test('the app works end to end under its own database role (strict mode)', async (t) => {
  const platform = await createTestPlatform({ apps: [app], firstParty: true, strictAppRoles: true });
  try {
    const workspace = await platform.workspace('strict');
    await workspace.install('tasks');
    const board = await workspace.owner.post('/boards', { title: 'Strict board' });
    t.is(board.status, 200);
    const task = await workspace.owner.post('/tasks', { title: 'Strict task', board_id: board.body.data.id, assignee_ids: [workspace.owner.id] });
    t.is(task.status, 200);
    t.is((await workspace.owner.post(`/tasks/${task.body.data.id}/comments`, { body: 'ok' })).status, 200);
    t.deepEqual(await platform.deliver(workspace, 'core.account.member.removed', { member_id: workspace.owner.id, removed_by: workspace.owner.id }), { tasks: 'handled' });
    t.deepEqual((await workspace.owner.get(`/tasks/${task.body.data.id}`)).body.data.assignee_ids, []);
    const found = await workspace.owner.get('/search?app=tasks&q=strict&types=board,task');
    t.deepEqual(found.body.data.map((result: { type: string; title: string }) => `${result.type}:${result.title}`), ['board:Strict board', 'task:Strict task']);
    t.is((await workspace.owner.delete(`/tasks/${task.body.data.id}`)).status, 200);
    t.is((await workspace.owner.request('DELETE', `/boards/${board.body.data.id}`, { confirm_key: 'Strict board' })).status, 200);
  } finally {
    await platform.close();
  }
});
