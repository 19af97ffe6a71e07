import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StagedEvent } from '../../src/events/sink.js';
import type { RuntimeOptions } from '../../src/index.js';
import { Browser } from './identity-http.js';
import { SmtpSink } from './identity-mail.js';
import { startTestRuntime, type TestRuntime } from './runtime.js';

/** An event the runtime committed, with the workspace it was written for. */
export interface RecordedEvent extends StagedEvent {
  workspaceId: string | null;
}

/** A listening runtime with a real SMTP sink, a scratch data directory and an event recorder. */
export interface IdentityTestRuntime extends TestRuntime {
  baseUrl: string;
  smtp: SmtpSink;
  events: RecordedEvent[];
  dataDir: string;
  browser(): Browser;
}

export async function startIdentityRuntime(options: RuntimeOptions = {}): Promise<IdentityTestRuntime> {
  const smtp = await SmtpSink.start();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wpk-identity-'));
  const events: RecordedEvent[] = [];
  // Records what identity and the apps layer stage, and still hands it to the runtime's own sink
  // (the event bus outbox, which checks emitter and action), so a malformed event fails the test.
  const env = await startTestRuntime({
    dataDir,
    smtpUrl: smtp.url,
    ...options,
    seams: {
      eventSink: (real) => ({
        write: async (workspaceId, staged, last) => {
          await real.write(workspaceId, staged, last);
          events.push(...staged.map((event) => ({ ...event, workspaceId })));
        },
        afterCommit: () => real.afterCommit(),
      }),
      ...options.seams,
    },
  });
  const baseUrl = await env.runtime.start();
  return {
    ...env,
    baseUrl,
    smtp,
    events,
    dataDir,
    browser: () => new Browser(baseUrl, env.runtime.config.baseDomain),
    async close() {
      try {
        await env.close();
      } finally {
        await smtp.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Signs a browser in on a workspace subdomain; throws unless it answers 200. */
export async function signIn(browser: Browser, subdomain: string, email: string, password: string, totp?: string): Promise<void> {
  const answer = await browser.post(subdomain, '/sessions', { email, password, ...(totp ? { totp } : {}) });
  if (answer.status !== 200) throw new Error(`sign-in of ${email} on ${subdomain}: ${answer.status} ${answer.text}`);
}
