import { defineApp, type AppDefinition } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models, type Models } from './models/index.js';
import { mailOptionsFromEnv, type MailOptions } from './options.js';
import { hostingRoutes } from './routes/hosting.js';
import { mailRoutes } from './routes/mail.js';
import { search } from './search.js';
import { connectionVerifier } from './imap.js';
import { MailService } from './smtp.js';

export type { DnsResolver, MailOptions, RelayConfig } from './options.js';
export { dnsResolver, mailOptionsFromEnv } from './options.js';
export { MailService } from './smtp.js';

export type { TlsSource } from './tls.js';

/** The Mail app's options, plus how often its queue runs. */
export interface MailAppOptions extends MailOptions {
  /** How often the queue hands due mail to the relay (0: only when `service.flush()` is called). */
  queueIntervalMs?: number;
}

/** The Mail app built with a deployment's options, and its running part (listener, queue, sync). */
export interface MailApp {
  app: AppDefinition<Models>;
  service: MailService;
}

/**
 * Builds the Mail app: `queueIntervalMs` is how often the queue hands due mail to the relay
 * (0: only when `service.flush()` is called, as tests do); `syncIntervalMs` how often connected
 * accounts sync (0: only when `service.sync()` is called).
 */
export function createMailApp(options: MailAppOptions): MailApp {
  const service = new MailService({ ...options, queueIntervalMs: options.queueIntervalMs ?? 5000, syncIntervalMs: options.syncIntervalMs ?? 0 });
  const app = defineApp(manifest, { routes: [...hostingRoutes(options), ...mailRoutes(connectionVerifier(options.allowPrivateHosts ?? false))], migrations, models, subscriptions, search, services: { smtp: service } });
  return { app, service };
}

/** The Mail app configured from the environment (`MAIL_*`, see options.ts). */
export default createMailApp(mailOptionsFromEnv()).app;
