import type { Request, ResponseToolkit } from '@hapi/hapi';
import { callApi, ok, type ApiAnswer } from './api.js';

/** `GET /me`: who is asking, as a screen sees it. */
export interface Me {
  member: { id: string; name: string; email: string; platform_role: string };
  workspace: { id: string; subdomain: string; name: string };
  platform_role: string;
  two_factor_enabled: boolean;
  elevated_until: string | null;
}

/** A screen's body, once `/me` has answered. */
export type Screen = (request: Request, h: ResponseToolkit, me: Me) => Promise<unknown>;

/** A workspace page: `/me` decides who is asking (signed out: 401, which becomes the sign-in redirect). */
export function screen(render: Screen) {
  return async (request: Request, h: ResponseToolkit) => {
    const me = await callApi<{ data: Me }>(request, 'GET', '/me');
    if (!ok(me)) return refusal(h, me);
    return render(request, h, me.body.data);
  };
}

/** An API refusal, passed on as is: the page layer renders it as HTML, a 401 navigation as the sign-in redirect. */
export function refusal(h: ResponseToolkit, answer: ApiAnswer) {
  return h.response({ error: answer.body.error ?? `The request failed (${answer.status})` }).code(answer.status);
}

const NOTICES: Record<string, string> = {
  invited: 'Invitation sent.',
  updated: 'Saved.',
  deactivated: 'Member deactivated.',
  revoked: 'Key revoked.',
  installed: 'App installed.',
  access: 'Access saved.',
  role: 'Role created.',
  permissions: 'Permissions saved.',
  settings: 'Settings saved.',
  'two-factor-off': 'Two-factor authentication is off.',
  elevated: 'Admin mode is on.',
  'access-requested': 'Your request for access went to the owners and admins.',
  'install-requested': 'Your request to install the app went to the owners and admins.',
};

/**
 * True for a refusal of who is asking (401, 403) rather than of what they sent: the screen
 * answers the error page with the API's reason, not the form again.
 */
export function denied(answer: ApiAnswer): boolean {
  return answer.status === 401 || answer.status === 403;
}

/** The fixed notice a 303 asked for (`?done=invited`); never text from the URL itself. */
export function notice(request: Request): string | null {
  return NOTICES[String(request.query.done ?? '')] ?? null;
}

/** Options of a workspace page route: no auth of its own (the API it calls judges the session). */
export function pageOptions() {
  return { auth: false as const, app: { wpk: { kind: 'page' as const, scope: 'workspace' as const } } };
}

/** The rows of a collection route, or the refusal. */
export async function rows<T>(request: Request, url: string): Promise<{ rows: T[]; answer: ApiAnswer }> {
  const answer = await callApi<{ data: T[] }>(request, 'GET', url);
  return { rows: ok(answer) ? answer.body.data : [], answer };
}

/** Post / redirect / get: a 303 to `location`. */
export function back(h: ResponseToolkit, location: string) {
  return h.redirect(location).code(303);
}

/** A refusal that belongs to the whole form (no single field). */
export function formError(answer: ApiAnswer, fallback: string) {
  return { values: {}, errors: {}, error: answer.body.error ?? fallback };
}
