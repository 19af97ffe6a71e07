import { retryDelay } from '../send-file.js';

/** The shell's own calls: same origin, the session cookie, the pinned version; a lapsed session goes to sign-in. */
export interface ShellContext {
  apiVersion: string;
  member: { id: string; name: string; email: string; platform_role: 'owner' | 'admin' | 'member' };
  workspace: { id: string; name: string; subdomain: string };
  /** The app this page hosts, if any. */
  app: { slug: string; name: string } | null;
  /** The apps the member can open (the switcher's, when the page was given them). */
  apps: Array<{ slug: string; name: string }> | null;
}

/** The context the server wrote into the page (`<script type="application/json" id="wpk-shell">`). */
export function shellContext(): ShellContext | null {
  const element = document.getElementById('wpk-shell');
  if (!element?.textContent) return null;
  return JSON.parse(element.textContent) as ShellContext;
}

/** Sends the person to sign in, and back to this page afterwards. */
export function toSignIn(): never {
  location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
  throw new Error('Signed out');
}

/**
 * A JSON call of the shell; throws the server's `{"error"}` text (after sending a lapsed session to
 * sign in). A GET is asked again after a transient failure, as an upload is sent again
 * (`retryDelay`: no answer, a bare 400 of the connection, 408, 429, 5xx): the member directory
 * read once for the page must not stay unread because one connection failed.
 */
export async function shellApi<T>(context: ShellContext, method: string, path: string, body?: unknown): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    let response: Response | null = null;
    let failure: unknown = null;
    try {
      response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'x-api-version': context.apiVersion, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      failure = error;
    }
    const text = response ? await response.text().catch(() => '') : '';
    if (!response?.ok && method === 'GET') {
      const delay = retryDelay({ status: response?.status ?? 0, text, retryAfter: response?.headers.get('retry-after') }, attempt);
      if (delay !== null) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
    }
    if (!response) throw failure instanceof Error ? failure : new Error(`${method} ${path}: no answer`);
    if (response.status === 401) toSignIn();
    let parsed = {} as T & { error?: string };
    try {
      parsed = JSON.parse(text) as T & { error?: string };
    } catch {
      // Not JSON: the status says what happened.
    }
    if (!response.ok) throw new Error(parsed.error ?? `${method} ${path}: ${response.status}`);
    return parsed;
  }
}
