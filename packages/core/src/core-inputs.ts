import type { Logger } from 'pino';
import type { AccessDenial } from './access/app-guard.js';
import type { AppRegistry } from './apps/registry.js';
import type { SearchIndexer } from './apps/search-operations.js';
import type { RuntimeConfig } from './config.js';
import type { Database } from './db/database.js';
import type { EventBusOptions } from './events/bus.js';
import type { EventSink } from './events/sink.js';
import type { Mailer } from './mail/mailer.js';
import type { PhonePushProvider } from './notifications/phone-push.js';

/** Which concern stages through an event sink handed to the `eventSink` seam. */
export type StagingConcern = 'apps' | 'identity';

/**
 * The substitutes a runtime can be given before it boots (`Runtime.create({ seams })`). The test
 * harnesses use them; a production runtime gives none and gets the real parts. Nothing patches
 * a runtime after it is built.
 */
export interface RuntimeSeams {
  /**
   * The clock of this runtime (default `() => new Date()`). A plugin gets it by declaring
   * `inputs.clock` in its deps, identity's services in `IdentityContext.clock`, and `runtime.clock`
   * reads it. A place that reads the time should read it here.
   */
  clock?: () => Date;
  /** Where every mail of the runtime goes (identity's, the apps layer's, the site's) instead of SMTP or files. */
  mailer?: Mailer;
  /**
   * Wraps the event sink a concern stages through (`apps`: app handlers, in-process deliveries
   * run by `runtime.apps.dispatch`, and the platform's app endpoints; `identity`: identity's flows).
   * Return `inner` wrapped (record, then hand on) to see what is written to the outbox; return
   * something else to replace it.
   */
  eventSink?: (inner: EventSink, concern: StagingConcern) => EventSink;
  /** Wraps the search indexer `ctx.search` changes go through (`inner` feeds the platform search index). */
  searchIndexer?: (inner: SearchIndexer) => SearchIndexer;
  /** Hears every refusal of layers 4-5 on an app route, before the 403 is answered (the harness's permission matrix). */
  accessDenied?: (denial: AccessDenial) => void;
  /** The phone-push provider (default: FCM when configured, else the local provider). */
  phonePush?: PhonePushProvider;
}

/**
 * What the runtime hands `registerCorePlugins`. No plugin gets it whole: each declares the parts
 * it reads in its `deps` (`inputs.config`, `inputs.clock`, ... in `core-plugin.ts`) and gets
 * exactly those.
 */
export interface CoreInputs {
  config: RuntimeConfig;
  logger: Logger;
  /** The seams, with the clock filled in. */
  seams: RuntimeSeams & { clock: () => Date };
  /** The opened database; only the `db` plugin declares it (others read `plugins.db`). */
  database: Database;
  /** The apps, loaded and validated before anything opened; only the `app-catalog` plugin declares them. */
  apps: AppRegistry;
  /** Event bus options; only the `events` plugin declares them. */
  events?: EventBusOptions;
}
