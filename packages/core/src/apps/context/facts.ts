import { payloadChecker, type AppLogger, type ContextApp, type PayloadChecker } from '@wpk/sdk';
import type { Logger } from 'pino';
import type { LoadedApp } from '../loader.js';

/** What a context reads of an app's manifest, built once per app (not per request). */
export interface AppFacts {
  app: ContextApp;
  declaredEvents: ReadonlySet<string>;
  searchTypes: ReadonlySet<string>;
  defaults: Readonly<Record<string, unknown>>;
}

const appFacts = new WeakMap<LoadedApp, AppFacts>();

export function factsOf(app: LoadedApp): AppFacts {
  let facts = appFacts.get(app);
  if (!facts) {
    facts = {
      app: Object.freeze({ slug: app.slug, id: app.namespace, name: app.manifest.name, version: app.manifest.version }),
      declaredEvents: new Set((app.manifest.events ?? []).map((event) => event.action)),
      searchTypes: new Set((app.manifest.search ?? []).map((entry) => entry.type)),
      defaults: frozenCopy(app.manifest.settings?.defaults ?? {}) as Readonly<Record<string, unknown>>,
    };
    appFacts.set(app, facts);
  }
  return facts;
}

/**
 * A deep copy of JSON data (settings as read from the database), frozen. Cheaper than
 * `structuredClone` + freeze on the small objects settings are, and the app cannot change them.
 */
export function frozenCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (value instanceof Date) return new Date(value.getTime());
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(copy);
}

const checkers = new WeakMap<LoadedApp, PayloadChecker>();

/** The payload checker of an app's declared events (schemas compiled once, on first use). */
export function checkerOf(app: LoadedApp): PayloadChecker {
  let checker = checkers.get(app);
  if (!checker) {
    checker = payloadChecker(app.manifest.events ?? []);
    checkers.set(app, checker);
  }
  return checker;
}

/** `ctx.log`; the logger is made at the first line logged (most requests log none). */
export function appLogger(loggerOf: Logger | (() => Logger)): AppLogger {
  let made: Logger | null = typeof loggerOf === 'function' ? null : loggerOf;
  const call = (level: 'debug' | 'info' | 'warn' | 'error') => (objectOrMessage: object | string, message?: string) => {
    const logger = (made ??= (loggerOf as () => Logger)());
    if (typeof objectOrMessage === 'string') logger[level](objectOrMessage);
    else logger[level](objectOrMessage, message);
  };
  return Object.freeze({ debug: call('debug'), info: call('info'), warn: call('warn'), error: call('error') });
}
