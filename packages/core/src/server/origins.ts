import type { Request } from '@hapi/hapi';
import { publicOrigin } from '../tenancy/index.js';

/**
 * The browser origins a request may come from with the session cookie, and whose pages may read
 * its answer (CORS): the public origin of the request's own host (its workspace, or the base
 * domain) and the base domain's (the platform's own sign-in and sign-up pages). A sibling
 * workspace's origin is never one of them: once workspaces serve pages, that would be
 * cross-tenant request forgery.
 */
export function trustedOrigins(request: Request, publicUrl: string): string[] {
  const base = publicOrigin(publicUrl, null);
  const workspace = request.app.workspace;
  return workspace ? [publicOrigin(publicUrl, workspace.subdomain), base] : [base];
}

/** True when the `Origin` header value is one of the request's trusted origins (exact scheme, host and port). */
export function isTrustedOrigin(origin: string, request: Request, publicUrl: string): boolean {
  let normalised: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    normalised = url.origin;
  } catch {
    return false; // `null` (sandboxed frames, file pages) and garbage
  }
  return trustedOrigins(request, publicUrl).includes(normalised);
}
