import { createClient, isApiError, fetchTransport, type Client, type Transport } from '@wpk/client/browser';
import { connectBridge, type Bridge } from './bridge/client.js';
import type { BridgeInit } from './bridge/protocol.js';

/** What a running front-end knows: the bridge, the API client, who and where. */
export interface AppKit {
  bridge: Bridge;
  /** `@wpk/client` over fetch, authenticated by the app's bridge token, `X-Api-Version` pinned. */
  client: Client;
  member: BridgeInit['member'];
  workspace: BridgeInit['workspace'];
  app: BridgeInit['app'];
  locale: string;
  timeZone: string;
  /**
   * True when the member holds `key` in the app (as of the app's last token): a screen offers
   * only what the member may do. The server still refuses what they may not.
   */
  can(key: string): boolean;
}

let current: AppKit | null = null;

/**
 * Requests through `fetch` with the bridge token; a 401 gets a fresh token from the shell and is
 * sent once more; a second 401 means the session itself is over (signed out, revoked, expired):
 * the shell sends the person to `/login?next=` this page.
 */
export function bridgeTransport(bridge: Bridge, inner: Transport = fetchTransport): Transport {
  return async (request) => {
    let response = await inner(request);
    if (response.status !== 401) return response;
    const fresh = await bridge.refreshToken().catch(() => null);
    if (fresh) response = await inner({ ...request, headers: { ...request.headers, authorization: `Bearer ${fresh}` } });
    if (response.status === 401) await bridge.sessionExpired();
    return response;
  };
}

/**
 * Starts an app's front-end: opens the bridge to the shell, builds the API client and keeps both
 * where the kit's components find them (`kit()`). Call it once, first, in `ui/main.ts`.
 */
export async function startApp(): Promise<AppKit> {
  if (current) return current;
  const bridge = await connectBridge();
  const init = bridge.init;
  const client = createClient({
    baseUrl: new URL(location.href).origin,
    apiVersion: init.api_version,
    token: () => bridge.token,
    transport: bridgeTransport(bridge),
    maxRetries: 1,
  });
  current = { bridge, client, member: init.member, workspace: init.workspace, app: init.app, locale: init.locale, timeZone: init.time_zone, can: (key) => bridge.permissions.includes(key) };
  document.documentElement.lang = init.locale;
  // The shell's search shortcut works with the focus inside the app too.
  document.addEventListener('keydown', (event) => {
    const typing = event.composedPath().some((target) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)));
    if ((event.key === 'k' && (event.ctrlKey || event.metaKey)) || (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey)) {
      event.preventDefault();
      void bridge.request('focus-search', {});
    }
  });
  return current;
}

/** The running app's kit; throws before `startApp()` resolved. */
export function kit(): AppKit {
  if (!current) throw new Error('startApp() has not finished: await it before rendering');
  return current;
}

/** For tests and the shell's own pages: a kit without a bridge (the locale only). */
export function localeOf(): { locale: string; timeZone: string } {
  if (current) return { locale: current.locale, timeZone: current.timeZone };
  const resolved = Intl.DateTimeFormat().resolvedOptions();
  return { locale: navigator.language || resolved.locale, timeZone: resolved.timeZone };
}

/** The `error` text of a refusal (an ApiError's server message), else the error's message. */
export function errorText(error: unknown): string {
  if (isApiError(error)) return error.error;
  return error instanceof Error ? error.message : String(error);
}

/** A screen's hand-made form: `busy` while its request runs (its button disabled), the refusal's words in `error`. */
export interface FormState {
  busy: boolean;
  error: string | null;
}

/** Runs a hand-made form's request (`run`: send, tell, go on): `busy` meanwhile, a refusal's words in `error`. */
export async function runForm(state: FormState, run: () => Promise<unknown>): Promise<void> {
  state.busy = true;
  try {
    await run();
  } catch (error) {
    state.error = errorText(error);
  } finally {
    state.busy = false;
  }
}

/**
 * Downloads a file the API answers (a quote's PDF, an export) and hands it to the browser as a
 * download: read with the app's token as bytes, named by the answer's `Content-Disposition` (else
 * `fallbackName`). An app's frame has no cookie, so a plain link to an API route would be refused;
 * its sandbox allows downloads. Refusals throw as the client's do (`errorText` reads them).
 */
export async function saveDownload(path: string, fallbackName: string): Promise<string> {
  const file = await kit().client.download('GET', path);
  const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.contentType }));
  const name = file.filename ?? fallbackName;
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the bytes once the click's task ran.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}
