import test from 'ava';
import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { StatementRecorder } from '../src/index.js';
import { migration } from '../src/db/migrations/0930-notification-links.js';
import { startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './helpers/apps.js';

// Migration 0930: notifications stored before the senders linked pages (docs/notifications.md)
// get the links the senders write now; a link in no old form is left as it was.

let env: AppsTestRuntime;
let ws: TestWorkspace;

test.before(async () => {
  env = await startAppsRuntime();
  ws = await TestWorkspace.create(env, 'links');
});

test.after.always(async () => {
  await env?.close();
});

test('stored notifications get the links the senders write now; any other link is left as it was', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  const [invoice, chat, task, call, mentionEvent, goneEvent] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  // The outbox still holds one mention's event (its emitter names the app); the other's is gone.
  await sequelize.query(
    `INSERT INTO platform.events (id, workspace_id, emitter, action, payload, metadata) VALUES (:id, :ws, 'papers', 'core.member.mentioned', '{}', '{}')`,
    { replacements: { id: mentionEvent, ws: ws.id } },
  );
  const stored: Array<[kind: string, link: string | null, data: Record<string, unknown>, source: string | null, expected: string | null]> = [
    ['billing.invoice_issued', `/invoices/${invoice}`, {}, null, `/admin/settings#invoice-${invoice}`],
    ['chat.added', `/chats/${chat}/messages`, {}, null, `/app/chat/chats/${chat}`],
    ['calls.requested', `/chats/${chat}/messages`, {}, null, `/app/chat/chats/${chat}`],
    ['tasks.assigned', `/tasks/${task}`, {}, null, `/app/tasks/tasks/${task}`],
    ['calls.scheduled', 'https://links.test/join/abc', { call_id: call }, null, `/app/calls/calls/${call}`],
    ['calls.reminder', null, { call_id: call }, null, `/app/calls/calls/${call}`],
    ['app.install_requested', '/applications/ext.acme.hello/status', {}, null, '/admin/apps#app-ext.acme.hello'],
    ['app.access_requested', '/apps/notes/access', {}, null, '/admin/apps#app-notes'],
    ['mentions.mentioned', `/papers/${task}?comment=1`, {}, mentionEvent, `/app/papers/papers/${task}?comment=1`],
    ['mentions.mentioned', '/papers/kept', {}, goneEvent, '/papers/kept'],
    // Already in the new form, or in no old form: unchanged.
    ['tasks.assigned', `/app/tasks/tasks/${task}`, {}, null, `/app/tasks/tasks/${task}`],
    ['chat.added', `/chats/${chat}/messages/extra`, {}, null, `/chats/${chat}/messages/extra`],
    ['app.custom', '/invoices', {}, null, '/invoices'],
    ['system.member_joined', null, {}, null, null],
  ];
  const ids: string[] = [];
  for (const [kind, link, data, source] of stored) {
    const [row] = await sequelize.query<{ id: string }>(
      `INSERT INTO platform.notifications (workspace_id, member_id, kind, title, link, data, source_event_id)
       VALUES (:ws, :member, :kind, 'stored', :link, CAST(:data AS jsonb), :source) RETURNING id`,
      { replacements: { ws: ws.id, member: ws.owner.memberId, kind, link, data: JSON.stringify(data), source }, type: QueryTypes.SELECT },
    );
    ids.push(row.id);
  }
  // As the runtime runs a migration: outside the statement check (a backfill spans workspaces).
  const migrate = () => {
    const run = () => migration.up({ sequelize } as Parameters<typeof migration.up>[0]);
    return StatementRecorder.current ? StatementRecorder.current.during('migrations', run) : run();
  };
  await migrate();
  const links = async () => {
    const rows = await sequelize.query<{ id: string; link: string | null }>('SELECT id, link FROM platform.notifications WHERE workspace_id = :ws', { replacements: { ws: ws.id }, type: QueryTypes.SELECT });
    return ids.map((id) => rows.find((row) => row.id === id)!.link);
  };
  const expected = stored.map(([, , , , link]) => link);
  t.deepEqual(await links(), expected);
  // Run again (as on a database migrated twice by hand): nothing moves.
  await migrate();
  t.deepEqual(await links(), expected);
});
