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

/** A JSON call of the shell; throws the server's `{"error"}` text (after sending a lapsed session to sign in). */
export async function shellApi<T>(context: ShellContext, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'x-api-version': context.apiVersion, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) toSignIn();
  const parsed = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new Error(parsed.error ?? `${method} ${path}: ${response.status}`);
  return parsed;
}
