import { LitElement, css, html, nothing } from 'lit';
import { sharedStyles } from '../components/shared-styles.js';
import { shellApi, type ShellContext } from './api.js';

interface Notification {
  id: string;
  title: string;
  body: string;
  link: string | null;
  read: boolean;
}

/**
 * `<wpk-shell-bell>`: the notifications bell with the unread count, kept live by the member's own
 * channel (`account/notifications/{member_id}` on the `/live` socket: every notification made or
 * read in any tab or process moves it at once), and the latest ten in a menu; opening one marks it
 * read and goes to its link, a page of the workspace (`/app/{app}{path}` for an app's record).
 * While the socket is down the count is read again every minute.
 */
export class WpkShellBell extends LitElement {
  static override properties = { unread: { state: true }, open: { state: true }, items: { state: true } };
  declare unread: number;
  declare open: boolean;
  declare items: Notification[];
  context: ShellContext | null = null;
  private socket: WebSocket | null = null;
  private poll: ReturnType<typeof setInterval> | undefined;
  private attempt = 0;

  constructor() {
    super();
    this.unread = 0;
    this.open = false;
    this.items = [];
  }

  static override styles = [sharedStyles, css`
    :host { position: relative; display: inline-block; }
    button.bell { all: unset; cursor: pointer; color: var(--wpk-color-header-text); padding: var(--wpk-space-1) var(--wpk-space-2); border-radius: var(--wpk-radius-s); }
    button.bell:focus-visible { outline: 2px solid var(--wpk-color-header-text); }
    .count { display: inline-block; min-width: 1.4em; padding: 0 0.35em; margin-left: var(--wpk-space-1); border-radius: var(--wpk-radius-pill); background: #ffffff; color: #0f2d4f; font-weight: var(--wpk-font-weight-bold); text-align: center; font-size: var(--wpk-font-size-s); }
    .panel { position: absolute; right: 0; top: calc(100% + 4px); z-index: 50; width: min(22rem, 90vw); background: var(--wpk-color-surface-raised); color: var(--wpk-color-text); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); box-shadow: var(--wpk-shadow-raised); padding: var(--wpk-space-2); }
    ul { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--wpk-space-1); }
    li button { all: unset; display: block; width: 100%; box-sizing: border-box; cursor: pointer; padding: var(--wpk-space-2); border-radius: var(--wpk-radius-s); }
    li button:focus-visible, li button:hover { background: var(--wpk-color-brand-quiet); }
    .unread { font-weight: var(--wpk-font-weight-bold); }
    .body { display: block; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); font-weight: var(--wpk-font-weight-normal); }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.count();
    this.connect();
    this.poll = setInterval(() => {
      if (this.socket?.readyState !== WebSocket.OPEN) void this.count();
    }, 60_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.poll);
    this.socket?.close();
  }

  /** Reads the unread count again. */
  async count(): Promise<void> {
    const answer = await shellApi<{ pagination: { total: number } }>(this.context!, 'GET', '/notifications?unread=true&per_page=1').catch(() => null);
    if (answer) this.unread = answer.pagination.total;
  }

  private connect(): void {
    const context = this.context!;
    const url = new URL('/live', location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('api_version', context.apiVersion);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      socket.send(JSON.stringify({ type: 'subscribe', channel: `account/notifications/${context.member.id}`, ref: 'bell' }));
    };
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as { type?: string };
      if (data.type === 'event' || data.type === 'subscribed') void this.count();
    };
    socket.onclose = () => {
      if (!this.isConnected) return;
      setTimeout(() => this.connect(), Math.min(60_000, 1000 * 2 ** this.attempt++));
    };
  }

  private async toggle(): Promise<void> {
    this.open = !this.open;
    if (!this.open) return;
    const answer = await shellApi<{ data: Notification[] }>(this.context!, 'GET', '/notifications?per_page=10').catch(() => null);
    this.items = answer?.data ?? [];
  }

  private async read(item: Notification): Promise<void> {
    if (!item.read) await shellApi(this.context!, 'PATCH', `/notifications/${item.id}`, { read: true }).catch(() => null);
    if (item.link && item.link.startsWith('/') && !item.link.startsWith('//')) location.assign(item.link);
    else {
      this.items = this.items.map((held) => (held.id === item.id ? { ...held, read: true } : held));
      void this.count();
    }
  }

  protected override render() {
    // The name is the visible word and the count, so speech input can say what it sees.
    return html`<button class="bell" type="button" aria-expanded=${this.open ? 'true' : 'false'} aria-controls=${this.open ? 'panel' : nothing} @click=${() => this.toggle()}>
        Notifications${this.unread ? html`<span class="wpk-visually-hidden">, ${this.unread} unread</span><span class="count" aria-hidden="true">${this.unread > 99 ? '99+' : this.unread}</span>` : nothing}
      </button>
      ${this.open
        ? html`<div class="panel" id="panel">
            ${this.items.length === 0 ? html`<p class="muted">No notifications.</p>` : nothing}
            <ul>
              ${this.items.map((item) => html`<li><button type="button" class=${item.read ? '' : 'unread'} @click=${() => this.read(item)}>${item.read ? '' : html`<span class="wpk-visually-hidden">Unread: </span>`}${item.title}<span class="body">${item.body}</span></button></li>`)}
            </ul>
          </div>`
        : nothing}`;
  }
}

customElements.define('wpk-shell-bell', WpkShellBell);
