import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { errorText, kit } from '../app.js';
import { LiveConnection, type LiveEvent } from '../live.js';
import { sharedStyles } from './shared-styles.js';
import './wa.js';

let shared: LiveConnection | null = null;

/** The front-end's one live socket (opened on first use, with the app's token). */
export function liveConnection(): LiveConnection {
  if (shared) return shared;
  const { bridge } = kit();
  const url = new URL('/live', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  shared = new LiveConnection({ url: url.toString(), apiVersion: bridge.init.api_version, token: async () => bridge.token });
  return shared;
}

/**
 * `<wpk-live-list>`: a list kept live by a channel. It subscribes first, then loads the items
 * over HTTP (`load`), then applies each event with an id above the subscription's `last_id`
 * (`apply`): the exact order docs/live-updates.md asks for. After a reconnect it resumes from the
 * last event it saw; when the server says the gap is gone (`reset`) it loads again.
 *
 * ```ts
 * html`<wpk-live-list channel=${`tasks/boards/${id}`} .load=${() => loadTasks(id)}
 *   .apply=${(tasks, event) => applyTaskEvent(tasks, event)} .renderItem=${(task) => html`${task.title}`}
 *   label="Tasks"></wpk-live-list>`
 * ```
 */
export class WpkLiveList<T = unknown> extends LitElement {
  static override properties = { channel: { type: String }, label: { type: String }, empty: { type: String }, items: { state: true }, error: { state: true }, loading: { state: true } };
  declare channel: string;
  declare label: string;
  declare empty: string;
  declare items: T[];
  declare error: string | null;
  declare loading: boolean;
  load: () => Promise<T[]> = async () => [];
  apply: (items: T[], event: LiveEvent) => T[] = (items) => items;
  renderItem: (item: T) => TemplateResult | string = (item) => String(item);
  private stop: (() => void) | null = null;
  private buffered: LiveEvent[] | null = null;
  private since = 0n;

  constructor() {
    super();
    this.channel = '';
    this.label = '';
    this.empty = 'Nothing here yet.';
    this.items = [];
    this.error = null;
    this.loading = true;
  }

  static override styles = [sharedStyles, css`
    :host { display: block; }
    ul { list-style: none; margin: 0; padding: 0; }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.channel) return;
    this.stop = liveConnection().follow(this.channel, {
      subscribed: ({ last_id, reset }) => {
        if (this.buffered === null || reset) void this.reload(BigInt(last_id));
      },
      event: (event) => {
        if (this.buffered) this.buffered.push(event);
        else if (BigInt(event.id) > this.since) this.items = this.apply(this.items, event);
      },
      lost: (error) => {
        this.error = error;
      },
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop?.();
    this.stop = null;
  }

  private async reload(lastId: bigint): Promise<void> {
    this.buffered = [];
    this.loading = true;
    try {
      let items = await this.load();
      for (const event of this.buffered) if (BigInt(event.id) > lastId) items = this.apply(items, event);
      this.items = items;
      this.since = lastId;
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.buffered = null;
      this.loading = false;
    }
  }

  protected override render() {
    return html`<ul aria-label=${this.label || nothing} aria-busy=${this.loading ? 'true' : 'false'}>
        ${this.items.map((item) => html`<li>${this.renderItem(item)}</li>`)}
      </ul>
      ${this.loading && this.items.length === 0 ? html`<wa-spinner label="Loading"></wa-spinner>` : nothing}
      ${!this.loading && this.items.length === 0 && !this.error ? html`<p class="muted">${this.empty}</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}`;
  }
}

customElements.define('wpk-live-list', WpkLiveList);

declare global {
  interface HTMLElementTagNameMap {
    'wpk-live-list': WpkLiveList;
  }
}
