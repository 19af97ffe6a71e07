import { LitElement, appLink, css, html, kit, nothing, repeat, screenStyles } from '@wpk/ui';
import { store, type Chat } from '../api.js';
import './chat-view.js';

/**
 * `/` and `/chats/{id}`: the member's chats beside the open one. The list puts favourites first,
 * shows each chat's unread count and a star to mark it; it moves live (a new message lifts its
 * chat to the top and counts it unread unless it is the one open). On a phone the open chat takes
 * the whole width, with the way back to the list.
 */
export class ChatHome extends LitElement {
  static override properties = { chatId: { attribute: false }, chats: { state: true }, loading: { state: true }, shown: { state: true } };
  declare chatId: string | null;
  declare chats: Chat[];
  declare loading: boolean;
  /** The list whose chats are shown ('' for every chat). */
  declare shown: string;
  private readonly refresh = () => (this.chats = [...store.chats]);

  static override styles = [screenStyles, css`
    :host { display: grid; grid-template-columns: minmax(14rem, 20rem) minmax(0, 1fr); gap: var(--wpk-space-4); }
    aside h2 { font-size: var(--wpk-font-size-s); text-transform: uppercase; letter-spacing: 0.04em; color: var(--wpk-color-text-muted); margin: var(--wpk-space-3) 0 var(--wpk-space-1); }
    ul { list-style: none; margin: 0; padding: 0; }
    li { display: flex; align-items: center; gap: var(--wpk-space-2); padding: var(--wpk-space-1) var(--wpk-space-2); border-radius: var(--wpk-radius-m); }
    li.current { background: var(--wpk-color-brand-quiet); }
    li a { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: var(--wpk-color-text); text-decoration: none; padding: var(--wpk-space-1) 0; }
    li.unread a { font-weight: var(--wpk-font-weight-bold); }
    .badge { min-width: 1.5rem; text-align: center; border-radius: var(--wpk-radius-pill); background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); font-size: var(--wpk-font-size-xs); padding: 0 var(--wpk-space-1); }
    button.star { font: inherit; background: none; border: 0; cursor: pointer; color: var(--wpk-color-text-muted); padding: var(--wpk-space-1); line-height: 1; }
    button.star[aria-pressed='true'] { color: var(--wpk-color-warning); }
    button.star:focus-visible { outline: 2px solid var(--wpk-color-focus); }
    .filter, .new-list { display: flex; gap: var(--wpk-space-2); align-items: center; flex-wrap: wrap; margin-bottom: var(--wpk-space-2); }
    .new-list input { flex: 1; min-width: 0; font: inherit; color: var(--wpk-color-text); background: var(--wpk-color-surface); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-1) var(--wpk-space-2); }
    .new-list button { font: inherit; border: 1px solid var(--wpk-color-border-strong); background: var(--wpk-color-surface-raised); color: var(--wpk-color-text); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-1) var(--wpk-space-2); cursor: pointer; }
    .empty { color: var(--wpk-color-text-muted); }
    .back { display: none; }
    @media (max-width: 700px) {
      :host { grid-template-columns: minmax(0, 1fr); }
      :host([open]) aside { display: none; }
      :host(:not([open])) .pane { display: none; }
      .back { display: inline-block; }
    }
  `];

  constructor() {
    super();
    this.chatId = null;
    this.chats = [];
    this.loading = true;
    this.shown = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    store.addEventListener('change', this.refresh);
    void store.start().then(() => {
      this.loading = false;
      this.refresh();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    store.removeEventListener('change', this.refresh);
  }

  protected override willUpdate(): void {
    this.toggleAttribute('open', Boolean(this.chatId));
    if (!this.chatId) void kit().bridge.title('Chats');
  }

  private row(chat: Chat) {
    const title = store.title(chat.id);
    const current = chat.id === this.chatId;
    return html`<li class=${`${current ? 'current' : ''} ${chat.unread_count > 0 ? 'unread' : ''}`}>
      ${appLink(`/chats/${chat.id}`, title, current)}
      ${chat.unread_count > 0 ? html`<span class="badge">${chat.unread_count}<span class="wpk-visually-hidden"> unread</span></span>` : nothing}
      <button class="star" type="button" aria-pressed=${chat.favourite ? 'true' : 'false'} aria-label=${`Favourite ${title}`}
        @click=${() => store.setFavourite(chat, !chat.favourite)}>${chat.favourite ? '★' : '☆'}</button>
    </li>`;
  }

  private list(heading: string, chats: Chat[]) {
    return html`<h2 id=${heading}>${heading}</h2>
      <ul aria-labelledby=${heading}>${repeat(chats, (chat) => chat.id, (chat) => this.row(chat))}</ul>`;
  }

  private async addList(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    if (name && (await store.createList(name))) form.reset();
  }

  protected override render() {
    const list = store.lists.find((held) => held.id === this.shown);
    const chats = list ? this.chats.filter((chat) => list.chat_ids.includes(chat.id)) : this.chats;
    const favourites = chats.filter((chat) => chat.favourite);
    const others = chats.filter((chat) => !chat.favourite);
    return html`<aside aria-label="Your chats">
        ${this.loading ? html`<p role="status">Loading chats…</p>` : nothing}
        <div class="filter"><label for="shown">Show</label>
          <select id="shown" @change=${(event: Event) => (this.shown = (event.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${!list}>All chats</option>
            ${store.lists.map((held) => html`<option value=${held.id} ?selected=${held.id === this.shown}>${held.name}</option>`)}
          </select></div>
        <form class="new-list" @submit=${(event: Event) => this.addList(event)}>
          <label for="list-name" class="wpk-visually-hidden">New list</label>
          <input id="list-name" name="name" maxlength="80" placeholder="New list" required />
          <button type="submit">Add list</button>
        </form>
        ${favourites.length ? this.list('Favourites', favourites) : nothing}
        ${this.list('Chats', others)}
        ${!this.loading && this.chats.length === 0 ? html`<p class="empty">No chat yet: start one under New chat.</p>` : nothing}
      </aside>
      <section class="pane">
        ${this.chatId
          ? html`<p class="back">${appLink('/', '← All chats')}</p><chat-view .chatId=${this.chatId}></chat-view>`
          : html`<h1>Chats</h1><p class="empty">Choose a chat, or start one under New chat.</p>`}
      </section>`;
  }
}

customElements.define('chat-home', ChatHome);
