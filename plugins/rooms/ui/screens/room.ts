import { LitElement, appLink, errorText, html, kit, memberMrn, memberNamesById, nothing, screenStyles, toast, type WpkMemberPicker } from '@wpk/ui';
import { CARD_STYLES, ROLES, canManage, joinHref, type Room, type RoomMember } from '../api.js';

/**
 * `/rooms/:room_id`: a room, its members with their roles and who is in its session now; Join the
 * session. Its owners and moderators rename it and change its description, add members chosen in
 * the shell's picker and remove members; what the server refuses shows as the page's alert.
 */
export class RoomsRoom extends LitElement {
  static override properties = { roomId: { attribute: 'room-id' }, room: { state: true }, members: { state: true }, names: { state: true }, error: { state: true }, busy: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare roomId: string;
  declare room: Room | null;
  declare members: RoomMember[];
  declare names: Map<string, string>;
  declare error: string | null;
  declare busy: boolean;

  constructor() {
    super();
    this.roomId = '';
    this.room = null;
    this.members = [];
    this.names = new Map();
    this.error = null;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load().catch((error) => (this.error = errorText(error)));
  }

  private async load(): Promise<void> {
    const [room, members] = await Promise.all([
      kit().client.rooms.getRoomsById({ params: { id: this.roomId } }),
      kit().client.rooms.getRoomsByIdMembers({ params: { id: this.roomId }, query: { per_page: 100 } }),
    ]);
    this.names = await memberNamesById((members.data as RoomMember[]).map((member) => member.member_id));
    this.room = room.data as Room;
    this.members = members.data as RoomMember[];
    void kit().bridge.title(this.room.name);
  }

  /** Runs one change through the routes, then reads the room again; a refusal becomes the page's alert. */
  private async apply(action: () => Promise<unknown>, done: string): Promise<boolean> {
    this.busy = true;
    this.error = null;
    try {
      await action();
      toast(done, 'success');
      await this.load();
      return true;
    } catch (error) {
      this.error = errorText(error);
      return false;
    } finally {
      this.busy = false;
    }
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const body = { name: String(data.get('name') ?? '').trim(), description: String(data.get('description') ?? '') };
    await this.apply(() => kit().client.rooms.patchRoomsById({ params: { id: this.roomId }, body }), 'The room is saved');
  }

  private async add(): Promise<void> {
    const picker = this.renderRoot.querySelector<WpkMemberPicker>('#add-members');
    for (const chosen of picker?.value ?? []) {
      const body = { member_mrn: memberMrn(chosen.id) };
      if (!(await this.apply(() => kit().client.rooms.postRoomsByIdMembers({ params: { id: this.roomId }, body }), `${chosen.name} is a member`))) return;
    }
    if (picker) picker.value = [];
  }

  private removeMember(member: RoomMember, name: string): Promise<boolean> {
    return this.apply(() => kit().client.rooms.deleteRoomsByIdMembersByMemberMrn({ params: { id: this.roomId, member_mrn: member.member_mrn } }), `${name} is no longer a member`);
  }

  private editing(room: Room) {
    return html`<h2>Edit the room</h2>
      <form class="fields" aria-label="Edit the room" @submit=${(event: SubmitEvent) => this.save(event)}>
        <label for="name">Name</label>
        <input id="name" name="name" maxlength="100" .value=${room.name} />
        <label for="description">Description</label>
        <textarea id="description" name="description" maxlength="1000" rows="3" .value=${room.description}></textarea>
        <button type="submit" ?disabled=${this.busy}>Save</button>
      </form>`;
  }

  protected override render() {
    const room = this.room;
    if (!room) return this.error ? html`<h1>Room</h1><p class="error" role="alert">${this.error}</p>` : html`<wa-spinner label="Loading the room"></wa-spinner>`;
    const manage = canManage(room.role);
    return html`<p class="back">${appLink('/', '← Rooms')}</p>
      <h1>${room.name}</h1>
      ${room.description ? html`<p>${room.description}</p>` : nothing}
      <p>${room.visibility === 'workspace' ? 'Open to the workspace' : 'Members only'}${room.locked ? ' · Locked' : ''} · ${room.present_mrns.length ? `${room.present_mrns.length} in the session now` : 'Nobody in the session'}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions"><button type="button" @click=${() => void kit().bridge.open(joinHref(room.id))}>Join the session</button></div>
      <h2>Members</h2>
      <div class="scroll">
        <table aria-label="Members">
          <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Now</th>${manage ? html`<th scope="col"><span class="wpk-visually-hidden">Actions</span></th>` : nothing}</tr></thead>
          <tbody>${this.members.map((member) => {
            const name = this.names.get(member.member_id) ?? 'A former member';
            return html`<tr>
              <td>${name}</td>
              <td>${ROLES[member.role] ?? member.role}</td>
              <td>${member.present ? 'In the session' : '—'}</td>
              ${manage ? html`<td><button type="button" ?disabled=${this.busy} @click=${() => this.removeMember(member, name)}>Remove<span class="wpk-visually-hidden"> ${name}</span></button></td>` : nothing}
            </tr>`;
          })}</tbody>
        </table>
      </div>
      ${manage
        ? html`<h2>Add members</h2>
            <wpk-member-picker id="add-members" label="Members to add" multiple></wpk-member-picker>
            <div class="actions"><button type="button" ?disabled=${this.busy} @click=${() => this.add()}>Add to the room</button></div>
            ${this.editing(room)}`
        : nothing}`;
  }
}

customElements.define('rooms-room', RoomsRoom);
