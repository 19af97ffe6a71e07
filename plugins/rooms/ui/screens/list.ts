import { LitElement, appLink, errorText, html, kit, screenStyles } from '@wpk/ui';
import { CARD_STYLES, ROLES, type Room } from '../api.js';

/** `/`: the rooms the member sees (theirs and those open to the workspace), by name. */
export class RoomsList extends LitElement {
  static override properties = { rooms: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare rooms: Room[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.rooms = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Rooms');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.rooms = (await kit().client.rooms.getRooms({ query: { per_page: 100 } })).data as Room[];
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    if (this.error) return html`<h1>Rooms</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.rooms) return html`<wa-spinner label="Loading the rooms"></wa-spinner>`;
    return html`<h1>Rooms</h1>
      ${this.rooms.length
        ? html`<ul class="cards" aria-label="Rooms">${this.rooms.map((room) => html`<li>
            ${appLink(`/rooms/${room.id}`, html`<strong>${room.name}</strong>`)}
            <div>${room.role ? `You: ${ROLES[room.role] ?? room.role}` : 'Open to the workspace'}${room.locked ? ' · Locked' : ''}</div>
            <div class="muted">${room.member_count} ${room.member_count === 1 ? 'member' : 'members'} · ${room.present_mrns.length ? `${room.present_mrns.length} in the session now` : 'Nobody in the session'}</div>
          </li>`)}</ul>`
        : html`<p class="muted">No room yet.</p>`}`;
  }
}

customElements.define('rooms-list', RoomsList);
