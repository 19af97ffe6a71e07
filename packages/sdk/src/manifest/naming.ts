/**
 * The naming rules of the specification, as small pure functions the validator, the runtime and
 * the docs share: app slugs, permission keys (`{app}.{resource}.{action}`) and event actions
 * (`{scope}.{app}.{resource}.{action}`). The one implementation: the event bus of
 * `@wpk/core` (events/names.ts) asks these too, never a grammar of its own.
 */

import { SYSTEM_EVENT_CATALOG } from './catalog.js';

/** An app slug: lowercase letters and digits, words joined by `_`, 2-40 characters. */
export const SLUG_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * Slugs no first-party (publisher-less) app may take: they name parts of the platform. `account`
 * is the namespace of the platform's own permission keys (`account.members.read`).
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['account', 'accounts', 'admin', 'api', 'apps', 'core', 'ext', 'platform', 'system']);

/** A publisher name: lowercase letters and digits only (it is joined with `_` into schema names). */
export const PUBLISHER_PATTERN = /^[a-z][a-z0-9]*$/;

/** One segment of a permission key or event action: lowercase words joined by `_`. */
export const SEGMENT_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * The closed list of verbs a permission key's action may be. The specification names create,
 * read, edit, delete, manage, assign, approve and export; the rest cover the operations its apps
 * show (viewing, sending, scheduling, hiring, ...).
 */
export const PERMISSION_VERBS: readonly string[] = [
  'approve', 'archive', 'assign', 'book', 'cancel', 'comment', 'configure', 'create', 'delete', 'download',
  'edit', 'export', 'hire', 'import', 'invite', 'join', 'list', 'manage', 'move', 'pay', 'publish', 'read',
  'receive', 'record', 'reject', 'remove', 'restore', 'review', 'run', 'schedule', 'send', 'share', 'sign',
  'start', 'stop', 'submit', 'suggest', 'transfer', 'update', 'upload', 'use', 'view', 'void',
];

/**
 * Plural nouns that do not end in `s`. A resource is plural when its last word ends in `s`
 * (but not `ss`, `us` or `is`, which are singular endings: access, status, analysis) or is
 * one of these.
 */
export const IRREGULAR_PLURALS: readonly string[] = ['people', 'children', 'men', 'women', 'data', 'media', 'criteria', 'feedback', 'staff', 'mail'];

/**
 * Past-tense words that do not end in `-ed`. An event's action is past tense when its last word
 * ends in `ed` or is one of these.
 */
export const IRREGULAR_PAST_TENSE: readonly string[] = [
  'begun', 'bought', 'brought', 'built', 'caught', 'chosen', 'cut', 'dealt', 'done', 'drawn', 'driven', 'fed',
  'felt', 'forgotten', 'found', 'frozen', 'given', 'gone', 'got', 'held', 'hidden', 'hit', 'kept', 'known',
  'laid', 'led', 'left', 'lent', 'lost', 'made', 'met', 'paid', 'put', 'quit', 'read', 'reset', 'rewritten',
  'run', 'said', 'seen', 'sent', 'set', 'shown', 'shut', 'sold', 'spent', 'split', 'spoken', 'stolen',
  'struck', 'taken', 'taught', 'told', 'thought', 'torn', 'undone', 'understood', 'withdrawn', 'won',
  'written',
];

/**
 * Event names of the specification's catalog that predate the past-tense rule. They are accepted
 * verbatim (for first-party apps, the only ones that may emit `core.*`), and nothing else is.
 */
export const CATALOG_EXCEPTIONS: readonly string[] = ['core.calls.call.reminder', 'core.calls.recording.ready', 'core.member.mentioned'];

/**
 * The `system.*` events the platform runtime emits (the catalog in `catalog.ts`). Apps may
 * subscribe to these and only these; no app emits them.
 */
export const SYSTEM_EVENTS: readonly string[] = SYSTEM_EVENT_CATALOG.map((event) => event.action);

/** The namespace of an app: its slug for a first-party app, `ext.{publisher}.{slug}` otherwise. */
export function appNamespace(slug: string, publisher?: string | null): string {
  return publisher ? `ext.${publisher}.${slug}` : slug;
}

/** The Postgres schema holding an app's tables: `app_{slug}` or `ext_{publisher}_{slug}`. */
export function appSchemaName(slug: string, publisher?: string | null): string {
  return publisher ? `ext_${publisher}_${slug}` : `app_${slug}`;
}

function lastWord(segment: string): string {
  const words = segment.split('_');
  return words[words.length - 1];
}

/** True when a resource segment names a plural noun (see IRREGULAR_PLURALS for the rule). */
export function isPluralNoun(segment: string): boolean {
  if (IRREGULAR_PLURALS.includes(segment)) return true;
  const word = lastWord(segment);
  if (IRREGULAR_PLURALS.includes(word)) return true;
  return word.length > 1 && word.endsWith('s') && !/(ss|us|is)$/.test(word);
}

/** True when the action segment is one of PERMISSION_VERBS. */
export function isPermissionVerb(segment: string): boolean {
  return PERMISSION_VERBS.includes(segment);
}

/** True when the last word of an event's action is past tense (`-ed`, or IRREGULAR_PAST_TENSE). */
export function isPastTense(segment: string): boolean {
  const word = lastWord(segment);
  return (word.length > 2 && word.endsWith('ed')) || IRREGULAR_PAST_TENSE.includes(word);
}

/**
 * Checks a permission key against the app's namespace; returns the problem, or null when the key
 * is valid. `{namespace}.*` is not a declarable key (it is the wildcard).
 */
export function permissionKeyProblem(key: string, namespace: string): string | null {
  const prefix = `${namespace}.`;
  if (!key.startsWith(prefix)) {
    const expected = namespace.startsWith('ext.') ? `"${prefix}" (third-party keys carry ext.{publisher}.{slug}.)` : `"${prefix}" (the app's slug)`;
    return `"${key}" must start with ${expected}`;
  }
  const rest = key.slice(prefix.length).split('.');
  if (rest.length !== 2) return `"${key}" must have the form ${prefix}{resource}.{action}`;
  const [resource, action] = rest;
  if (!SEGMENT_PATTERN.test(resource)) return `"${key}": resource "${resource}" must be lowercase words joined by _`;
  if (!SEGMENT_PATTERN.test(action)) return `"${key}": action "${action}" must be lowercase words joined by _`;
  if (!isPluralNoun(resource)) return `"${key}": resource "${resource}" must be a plural noun (for example "${resource}s")`;
  if (!isPermissionVerb(action)) return `"${key}": action "${action}" is not one of the permission verbs (${PERMISSION_VERBS.join(', ')})`;
  return null;
}

/** The parts of an event action name. */
export interface EventName {
  /** `core`, `system` or `ext.{publisher}`. */
  scope: string;
  app: string;
  resource: string;
  action: string;
}

/** Splits `{scope}.{app}.{resource}.{action}` (scope `ext.{publisher}` for third parties); null if malformed. */
export function parseEventName(name: string): EventName | null {
  const parts = name.split('.');
  if (!parts.every((part) => SEGMENT_PATTERN.test(part))) return null;
  if (parts[0] === 'ext') {
    if (parts.length !== 5 || !PUBLISHER_PATTERN.test(parts[1])) return null;
    return { scope: `ext.${parts[1]}`, app: parts[2], resource: parts[3], action: parts[4] };
  }
  if (parts.length !== 4 || (parts[0] !== 'core' && parts[0] !== 'system')) return null; // system names of 3 parts: see SYSTEM_EVENTS
  return { scope: parts[0], app: parts[1], resource: parts[2], action: parts[3] };
}

/** Checks the shape of an event name (any scope, as a subscriber may name); returns the problem or null. */
export function eventNameProblem(name: string): string | null {
  if (CATALOG_EXCEPTIONS.includes(name)) return null;
  if (name.startsWith('system.')) return SYSTEM_EVENTS.includes(name) ? null : `"${name}" is not an event the platform emits (${SYSTEM_EVENTS.join(', ')})`;
  const parsed = parseEventName(name);
  if (!parsed) return `"${name}" must have the form {scope}.{app}.{resource}.{action} with scope core, system or ext.{publisher}`;
  if (!isPastTense(parsed.action)) return `"${name}": action "${parsed.action}" must be a past-tense verb (ending in -ed, or one of: ${IRREGULAR_PAST_TENSE.join(', ')})`;
  return null;
}

/**
 * The platform runtime's own emitters on the event bus and the namespaces each emits in: `system`
 * (the runtime: `system.*` and `core.account.*`), `account` (the account area: `core.account.*`) and
 * `billing` (the platform's billing: `core.billing.*`). The names are reserved slugs, so no app can
 * pose as them.
 */
export const RUNTIME_EMITTERS: Readonly<Record<string, readonly string[]>> = Object.freeze({ system: ['system.', 'core.account.'], account: ['core.account.'], billing: ['core.billing.'] });

/** Who emits an event: an app (its slug, publisher, and whether it is loaded as first-party) or a runtime emitter. */
export interface EventEmitter {
  slug: string;
  publisher?: string | null;
  firstParty: boolean;
  /** True for one of RUNTIME_EMITTERS (`slug` names which). */
  runtime?: boolean;
}

/**
 * Why `emitter` may not emit `name` under the scope rules, or null when it may: `system.*` by the
 * runtime only; `core.account.*` by the runtime only; the rest of `core.*` by first-party apps
 * only; `ext.{publisher}.{slug}.*` by that app only. The bare reason, for callers that name the
 * emitter and the action themselves; `emitScopeProblem` is the manifest's form.
 */
export function emitScopeReason(name: string, emitter: EventEmitter): string | null {
  if (emitter.runtime) {
    const namespaces = RUNTIME_EMITTERS[emitter.slug] ?? [];
    if (namespaces.some((namespace) => name.startsWith(namespace))) return null;
    if (name.startsWith('system.')) return 'system.* events are emitted by the platform runtime only';
    return `the runtime's ${emitter.slug} emitter emits only ${namespaces.map((namespace) => `${namespace}*`).join(' and ')}`;
  }
  if (name.startsWith('system.')) return 'system.* events are emitted by the platform runtime only; apps may subscribe to them but never emit them';
  if (name.startsWith('core.account.')) return 'core.account.* events are emitted by the platform runtime only';
  if (name.startsWith('core.billing.')) return 'core.billing.* events are emitted by the platform runtime only';
  if (name.startsWith('core.')) {
    return emitter.firstParty ? null : `core.* events are emitted by first-party apps only; a third-party app emits in ${appNamespace(emitter.slug, emitter.publisher)}.*`;
  }
  if (name.startsWith('ext.')) {
    const own = emitter.publisher ? `${appNamespace(emitter.slug, emitter.publisher)}.` : null;
    if (own && name.startsWith(own)) return null;
    return own ? `an app emits only in its own namespace ${own}*` : 'ext.* events belong to third-party apps; a first-party app emits core.*';
  }
  return 'an event name must start with core., ext. or system.';
}

/**
 * Checks that an app may emit `name`: `system.*` never; `core.*` only when the runtime loads the
 * app as first-party; an app with a publisher emits in `ext.{publisher}.{slug}.*` and nowhere else
 * of the ext scope. Returns the problem (`"name": reason`) or null.
 */
export function emitScopeProblem(name: string, app: EventEmitter): string | null {
  const reason = emitScopeReason(name, app);
  return reason ? `"${name}": ${reason}` : null;
}

/** The slug and publisher of an app namespace (`tasks`, `ext.acme.hello`); the inverse of appNamespace. */
export function splitNamespace(namespace: string): { slug: string; publisher: string | null } {
  const parts = namespace.split('.');
  return parts[0] === 'ext' && parts.length === 3 ? { slug: parts[2], publisher: parts[1] } : { slug: namespace, publisher: null };
}

/**
 * Checks an app namespace as the event bus registers it: a first-party app's slug (SLUG_PATTERN,
 * not reserved), or `ext.{publisher}.{slug}` for a third-party app. Returns the problem or null.
 */
export function namespaceProblem(namespace: string, firstParty: boolean): string | null {
  if (namespace.startsWith('ext.')) {
    if (firstParty) return `slug "${namespace}" names a third-party app (ext.*), which cannot be first-party`;
    const parts = namespace.split('.');
    if (parts.length !== 3 || !PUBLISHER_PATTERN.test(parts[1]) || !SLUG_PATTERN.test(parts[2])) {
      return `slug "${namespace}" of a third-party app must have the form ext.{publisher}.{slug} (lowercase; words of the slug joined by _)`;
    }
    return null;
  }
  if (RESERVED_SLUGS.has(namespace)) return `slug "${namespace}" is reserved for the platform`;
  if (!firstParty) return `slug "${namespace}" of a third-party app must have the form ext.{publisher}.{slug}`;
  if (!SLUG_PATTERN.test(namespace)) return `slug "${namespace}" must be lowercase letters and digits, words joined by _`;
  return null;
}
