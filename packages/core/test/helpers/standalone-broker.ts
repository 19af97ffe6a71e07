import type { Workspace } from '../../src/index.js';
import { startEventSink, type EventSinkServer } from './event-sink.js';
import { startTestRuntime, type TestRuntime } from './runtime.js';

/** A runtime with no broker of its own, the workspace `acme`, and the HTTP sink `hooks` delivers to. */
export interface BrokerlessRuntime {
  env: TestRuntime;
  sink: EventSinkServer;
  acme: Workspace;
  close(): Promise<void>;
}

/**
 * The set-up of the standalone-broker tests (`wpk broker` in this process or as a process): a
 * runtime that runs no broker (signing with `secret`), the workspace `acme`, and the catalog the
 * broker reads from the database: `tasks` emits `core.tasks.task.created` (`{ n: integer }`),
 * `hooks` (the sink, over HTTP) subscribes to it with the default retries.
 */
export async function startBrokerlessRuntime(secret: string): Promise<BrokerlessRuntime> {
  const sink = await startEventSink();
  const env = await startTestRuntime({ events: { broker: false, brokerSecret: secret } }).catch(async (error: unknown) => {
    await sink.close();
    throw error;
  });
  const { runtime } = env;
  const acme = await runtime.workspaces.create({ subdomain: 'acme', name: 'Acme' });
  runtime.events.registerParticipant({
    slug: 'tasks',
    firstParty: true,
    address: null,
    emits: [{ action: 'core.tasks.task.created', description: 'A task was created.', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }],
  });
  runtime.events.registerParticipant({ slug: 'hooks', firstParty: true, address: sink.url, subscriptions: [{ action: 'core.tasks.task.created', handler: '/created' }] });
  await runtime.events.syncCatalog();
  return {
    env,
    sink,
    acme,
    async close() {
      await env.close();
      await sink.close();
    },
  };
}
