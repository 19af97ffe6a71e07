import { LitElement, css, html, nothing, screenStyles } from '@wpk/ui';
import type { WpkCall } from '@wpk/ui/call';
import type { Call } from './api.js';

const API_VERSION = '2026-11-01';

/**
 * One request of the same-origin call page: the member's session cookie, the pinned version, and
 * the answer's `data` (its `error` thrown).
 */
async function api<T>(method: string, path: string): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'x-api-version': API_VERSION, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'POST' ? '{}' : undefined,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${method} ${path}: ${response.status}`);
  return body.data as T;
}

/**
 * `join.html?call={id}`: the call itself, top-level on the workspace's origin (the camera), with
 * the session cookie: the call's title, `<wpk-call>` joining through POST and DELETE
 * /calls/{id}/sessions, and the way back to the call's page in the app.
 */
export class CallsJoinPage extends LitElement {
  static override properties = { call: { state: true }, error: { state: true } };
  static override styles = [
    screenStyles,
    css`
      :host { display: block; max-width: 72rem; margin: 0 auto; padding: var(--wpk-space-3); }
    `,
  ];
  declare call: Call | null;
  declare error: string | null;
  readonly callId = new URLSearchParams(location.search).get('call') ?? '';

  constructor() {
    super();
    this.call = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      if (!this.callId) throw new Error('Open this page with ?call={call id}');
      await import('@wpk/ui/call');
      this.call = await api<Call>('GET', `/calls/${encodeURIComponent(this.callId)}`);
      document.title = `${this.call.title} · Calls`;
    } catch (error) {
      this.error = String((error as Error)?.message ?? error);
    }
  }

  protected override updated(): void {
    const element = this.renderRoot.querySelector<WpkCall>('wpk-call');
    if (element) (window as unknown as { wpkCall: unknown }).wpkCall = element.state;
  }

  protected override render() {
    const back = html`<p class="back"><a href=${`/app/calls/calls/${encodeURIComponent(this.callId)}`}>← The call's page</a></p>`;
    if (this.error) return html`<main>${back}<h1>Call</h1><p class="error" role="alert">${this.error}</p></main>`;
    const call = this.call;
    if (!call) return html`<main><p role="status">Loading the call…</p></main>`;
    const id = encodeURIComponent(call.id);
    const transport = {
      apiVersion: API_VERSION,
      join: async () => (await api<{ signaling: { url: string; session: string; ice_servers: RTCIceServer[] } }>('POST', `/calls/${id}/sessions`)).signaling,
      leave: async () => void (await api('DELETE', `/calls/${id}/sessions`)),
    };
    return html`<main>
      ${back}
      <h1>${call.title}</h1>
      ${call.status === 'ended' || call.status === 'cancelled'
        ? html`<p>This call is over.</p>`
        : html`<wpk-call label=${call.title} ?video=${call.mode === 'video'} .transport=${transport}></wpk-call>`}
      ${nothing}
    </main>`;
  }
}

/** Puts the call page on the document. */
export async function mountJoinPage(): Promise<void> {
  customElements.define('calls-join-page', CallsJoinPage);
  document.documentElement.lang ||= 'en';
  document.body.append(document.createElement('calls-join-page'));
}
