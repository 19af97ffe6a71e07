/**
 * Action names and the scope rules of the specification ("Naming and scopes"):
 * `{scope}.{app}.{resource}.{action}`; `core.*` is emitted by first-party apps only,
 * `ext.{publisher}.{app}.*` by that third-party app only, `system.*` by the runtime only.
 */

/** The participant slug of the platform runtime itself. */
export const RUNTIME_SLUG = 'system';
/** The runtime's account area (members, roles, applications), the emitter of `core.account.*`. */
export const ACCOUNT_SLUG = 'account';
/** Slugs that speak for the runtime; no app may take them. */
export const RUNTIME_SLUGS = new Set([RUNTIME_SLUG, ACCOUNT_SLUG]);

/** Namespaces the runtime owns: no app may declare an action inside them. */
export const RUNTIME_NAMESPACES = ['system.', 'core.account.'];

const SEGMENT = '[a-z][a-z0-9_-]*';
const ACTION = new RegExp(`^${SEGMENT}(\\.${SEGMENT}){2,}$`);
const FIRST_PARTY_SLUG = /^[a-z][a-z0-9_-]*$/;
const EXT_SLUG = new RegExp(`^ext\\.${SEGMENT}\\.${SEGMENT}$`);

/** True when `action` has the shape `{scope}.{app}.{resource}...` with lowercase segments. */
export function isActionName(action: unknown): action is string {
  return typeof action === 'string' && action.length <= 200 && ACTION.test(action);
}

/** Why `slug` cannot be a participant of the given kind, or null when it can. */
export function slugProblem(slug: unknown, firstParty: boolean): string | null {
  if (typeof slug !== 'string' || slug.length === 0) return 'slug must be a non-empty string';
  if (RUNTIME_SLUGS.has(slug)) return `slug "${slug}" is reserved for the platform runtime`;
  if (firstParty) {
    if (slug.startsWith('ext.')) return `slug "${slug}" names a third-party app (ext.*), which cannot be first-party`;
    if (!FIRST_PARTY_SLUG.test(slug)) return `slug "${slug}" must be lowercase letters, digits, "_" or "-", starting with a letter`;
    return null;
  }
  if (!EXT_SLUG.test(slug)) return `slug "${slug}" of a third-party app must have the form ext.{publisher}.{app}`;
  return null;
}

/**
 * Why `emitter` may not declare or emit `action`, or null when it may. `emitter` is a participant
 * slug; `firstParty` says whether it is a first-party app (the runtime counts as first-party).
 */
export function emitScopeProblem(emitter: string, firstParty: boolean, action: string): string | null {
  if (!isActionName(action)) return `"${action}" is not an action name ({scope}.{app}.{resource}.{action}, lowercase)`;
  const runtime = RUNTIME_SLUGS.has(emitter);
  if (action.startsWith('system.')) {
    return emitter === RUNTIME_SLUG ? null : `${emitter} may not emit ${action}: system.* events are emitted by the platform runtime only`;
  }
  if (action.startsWith('core.')) {
    if (runtime) return action.startsWith('core.account.') ? null : `the runtime emits only system.* and core.account.* actions, not ${action}`;
    if (!firstParty) return `${emitter} may not emit ${action}: core.* events are emitted by first-party apps only`;
    if (action.startsWith('core.account.')) return `${emitter} may not emit ${action}: core.account.* events are emitted by the platform runtime only`;
    return null;
  }
  if (action.startsWith('ext.')) {
    if (runtime || firstParty) return `${emitter} may not emit ${action}: ext.* events are emitted by third-party apps in their own namespace only`;
    if (!action.startsWith(`${emitter}.`) || action.split('.').length < emitter.split('.').length + 2) {
      return `${emitter} may not emit ${action}: a third-party app emits only ${emitter}.{resource}.{action}`;
    }
    return null;
  }
  return `${action} has no known scope: actions start with core., ext. or system.`;
}

/** The conventional handler path of an action: `/events/{action-with-dots-as-dashes}`. */
export function conventionalHandlerPath(action: string): string {
  return `/events/${action.replaceAll('.', '-')}`;
}

/** True when `path` is an absolute URL path (no query, no fragment). */
export function isHandlerPath(path: unknown): path is string {
  return typeof path === 'string' && /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path) && !path.includes('//') && path.length <= 300;
}
