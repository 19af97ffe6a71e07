import test from 'ava';
import { createLogger } from '../src/index.js';
import { NOTES_DIR } from './helpers/apps.js';
import { startTestRuntime } from './helpers/runtime.js';

test('start-up warns only about a subscription its loaded app does not emit, not about apps that are not loaded', async (t) => {
  const lines: Array<{ level: number; msg: string; action?: string; app?: string }> = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line)) });
  const { runtime, close } = await startTestRuntime({ logger, configFile: false, apps: [{ dir: NOTES_DIR, firstParty: true }] });
  t.teardown(close);
  // notes is loaded and emits core.notes.note.created only; the platform also listens to chat,
  // calls, tasks and wiki (its notification senders), which are not loaded here.
  runtime.events.registry.addRuntimeSubscriptions([{ action: 'core.notes.note.archived', handler: '/events/test-note-archived' }]);
  await runtime.events.startBroker();

  const warnings = lines.filter((line) => line.level === 40);
  t.deepEqual(
    warnings.map((line) => [line.msg, line.action]),
    [['subscription to an action its app does not emit', 'core.notes.note.archived']],
  );
  const waiting = lines.filter((line) => line.msg === 'subscription to an app that is not loaded');
  t.deepEqual([...new Set(waiting.map((line) => line.app))].sort(), ['calls', 'chat', 'member', 'tasks', 'wiki']);
});
