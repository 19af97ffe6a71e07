import { LitElement, appLink, errorText, html, kit, nothing, screenStyles } from '@wpk/ui';
import { CARD_STYLES, ROLES, joinHref, memberNames, type Room, type RoomMember } from '../api.js';

/** `/rooms/:room_id`: a room, its members with their roles and who is in its session now; Join the session. */
export class RoomsRoom extends LitElement {
  static override properties = { roomId: { attribute: 'room-id' }, room: { state: true }, members: { state: true }, names: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare roomId: string;
  declare room: Room | null;
  declare members: RoomMember[];
  declare names: Map<string, string>;
  declare error: string | null;

  constructor() {
    super();
    this.roomId = '';
    this.room = null;
    this.members = [];
    this.names = new Map();
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const [room, members] = await Promise.all([
        kit().client.rooms.getRoomsById({ params: { id: this.roomId } }),
        kit().client.rooms.getRoomsByIdMembers({ params: { id: this.roomId }, query: { per_page: 100 } }),
      ]);
      this.room = room.data as Room;
      this.members = members.data as RoomMember[];
      void kit().bridge.title(this.room.name);
      this.names = await memberNames(this.members.map((member) => member.member_id));
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    const room = this.room;
    if (!room) return this.error ? html`<h1>Room</h1><p class="error" role="alert">${this.error}</p>` : html`<wa-spinner label="Loading the room"></wa-spinner>`;
    return html`<p class="back">${appLink('/', '← Rooms')}</p>
      <h1>${room.name}</h1>
      ${room.description ? html`<p>${room.description}</p>` : nothing}
      <p>${room.visibility === 'workspace' ? 'Open to the workspace' : 'Members only'}${room.locked ? ' · Locked' : ''} · ${room.present_mrns.length ? `${room.present_mrns.length} in the session now` : 'Nobody in the session'}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions"><button type="button" @click=${() => void kit().bridge.open(joinHref(room.id))}>Join the session</button></div>
      <h2>Members</h2>
      <div class="scroll">
        <table aria-label="Members">
          <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Now</th></tr></thead>
          <tbody>${this.members.map((member) => html`<tr>
            <td>${this.names.get(member.member_id) ?? 'A former member'}</td>
            <td>${ROLES[member.role] ?? member.role}</td>
            <td>${member.present ? 'In the session' : '—'}</td>
          </tr>`)}</tbody>
        </table>
      </div>`;
  }
}

customElements.define('rooms-room', RoomsRoom);
