import { LitElement, css, html, screenStyles } from '@wpk/ui';
import type { WpkCall } from '@wpk/ui/call';
import type { Room } from './api.js';

const API_VERSION = '2026-11-01';

/** One request of the same-origin page: the member's session cookie, the pinned version, the answer's `data` (its `error` thrown). */
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
 * `join.html?room={id}`: the room's session, top-level on the workspace's origin (the camera),
 * with the session cookie: the room's name, `<wpk-call>` joining through POST and DELETE
 * /rooms/{id}/sessions, and the way back to the room's page in the app.
 */
export class RoomsJoinPage extends LitElement {
  static override properties = { room: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`:host { display: block; max-width: 72rem; margin: 0 auto; padding: var(--wpk-space-3); }`];
  declare room: Room | null;
  declare error: string | null;
  readonly roomId = new URLSearchParams(location.search).get('room') ?? '';

  constructor() {
    super();
    this.room = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      if (!this.roomId) throw new Error('Open this page with ?room={room id}');
      await import('@wpk/ui/call');
      this.room = await api<Room>('GET', `/rooms/${encodeURIComponent(this.roomId)}`);
      document.title = `${this.room.name} · Rooms`;
    } catch (error) {
      this.error = String((error as Error)?.message ?? error);
    }
  }

  protected override updated(): void {
    const element = this.renderRoot.querySelector<WpkCall>('wpk-call');
    if (element) (window as unknown as { wpkCall: unknown }).wpkCall = element.state;
  }

  protected override render() {
    const back = html`<p class="back"><a href=${`/app/rooms/rooms/${encodeURIComponent(this.roomId)}`}>← The room's page</a></p>`;
    if (this.error) return html`<main>${back}<h1>Room</h1><p class="error" role="alert">${this.error}</p></main>`;
    const room = this.room;
    if (!room) return html`<main><p role="status">Loading the room…</p></main>`;
    const id = encodeURIComponent(room.id);
    const transport = {
      apiVersion: API_VERSION,
      join: async () => (await api<{ signaling: { url: string; session: string; ice_servers: RTCIceServer[] } }>('POST', `/rooms/${id}/sessions`)).signaling,
      leave: async () => void (await api('DELETE', `/rooms/${id}/sessions`)),
    };
    return html`<main>
      ${back}
      <h1>${room.name}</h1>
      <wpk-call label=${room.name} video .transport=${transport}></wpk-call>
    </main>`;
  }
}

/** Puts the room's session page on the document. */
export async function mountJoinPage(): Promise<void> {
  customElements.define('rooms-join-page', RoomsJoinPage);
  document.documentElement.lang ||= 'en';
  document.body.append(document.createElement('rooms-join-page'));
}
