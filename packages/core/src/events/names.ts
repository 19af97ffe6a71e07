/**
 * The event bus's side of the specification's naming and scope rules ("Naming and scopes"). The
 * rules themselves (the grammar of an action name, who may emit in which scope, what an app
 * namespace looks like) are the SDK's (`@wpk/sdk/tooling`, manifest/naming.ts), shared with the
 * manifest validator; this file names the runtime's own participants and asks those rules about
 * a participant as the bus knows it (by namespace).
 */
import { emitScopeReason, eventNameProblem, namespaceProblem, RUNTIME_EMITTERS, splitNamespace } from '@wpk/sdk/tooling';

/** The participant slug of the platform runtime itself. */
export const RUNTIME_SLUG = 'system';
/** The runtime's account area (members, roles, applications), the emitter of `core.account.*`. */
export const ACCOUNT_SLUG = 'account';
/** The platform's billing, the emitter of `core.billing.*`. */
export const BILLING_SLUG = 'billing';
/** Slugs that speak for the runtime (the SDK's RUNTIME_EMITTERS); no app may take them. */
export const RUNTIME_SLUGS: ReadonlySet<string> = new Set(Object.keys(RUNTIME_EMITTERS));

/** Why `action` is not an event name, or null when it is (any scope: what a subscriber may name). */
export function actionNameProblem(action: unknown): string | null {
  if (typeof action !== 'string') return `${JSON.stringify(action)} is not an event name`;
  if (action.length > 200) return `"${action.slice(0, 40)}…" is longer than 200 characters`;
  return eventNameProblem(action);
}

/** Why `slug` cannot be a participant of the given kind, or null when it can (the SDK's `namespaceProblem`). */
export function slugProblem(slug: unknown, firstParty: boolean): string | null {
  if (typeof slug !== 'string' || slug.length === 0) return 'slug must be a non-empty string';
  return namespaceProblem(slug, firstParty);
}

/**
 * Why `emitter` may not emit `action` under the scope rules, or null when it may. `emitter` is a
 * participant slug (an app namespace, or a runtime slug); `firstParty` says whether it is a
 * first-party app.
 */
export function emitScopeProblem(emitter: string, firstParty: boolean, action: string): string | null {
  const runtime = RUNTIME_SLUGS.has(emitter);
  const reason = emitScopeReason(action, runtime ? { slug: emitter, firstParty: true, runtime } : { ...splitNamespace(emitter), firstParty });
  return reason ? `${emitter} may not emit ${action}: ${reason}` : null;
}

/** The conventional handler path of an action: `/events/{action-with-dots-as-dashes}`. */
export function conventionalHandlerPath(action: string): string {
  return `/events/${action.replaceAll('.', '-')}`;
}

/** True when `path` is an absolute URL path (no query, no fragment). */
export function isHandlerPath(path: unknown): path is string {
  return typeof path === 'string' && /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path) && !path.includes('//') && path.length <= 300;
}
