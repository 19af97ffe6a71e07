import { LitElement, confirmAction, css, errorText, html, kit, nothing, sharedStyles, toast } from '@wpk/ui';
import type { Item, Share } from '../api.js';

type Role = Share['role'];
const ROLES: Array<{ value: Role; label: string }> = [
  { value: 'read', label: 'Can view' },
  { value: 'edit', label: 'Can edit' },
];

/**
 * The sharing of a file or a folder: the members it is shared with and their role (view or
 * edit), **Share with…** (the shell's member picker: the member directory is the shell's to read),
 * a role changed in place, and **Stop sharing** (the shell asks first). Only the owner changes it;
 * others see who has it.
 */
export class FilesShares extends LitElement {
  static override properties = { item: { attribute: false }, shares: { state: true }, names: { state: true }, error: { state: true }, role: { state: true } };
  declare item: Item;
  declare shares: Share[] | null;
  /** Member names by id, from the shell. */
  declare names: Map<string, string>;
  declare error: string | null;
  /** The role a new share gets. */
  declare role: Role;

  constructor() {
    super();
    this.shares = null;
    this.names = new Map();
    this.error = null;
    this.role = 'read';
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; margin: var(--wpk-space-4) 0; }
      h2 { font-size: var(--wpk-font-size-l); margin: 0 0 var(--wpk-space-2); }
      ul { list-style: none; margin: 0 0 var(--wpk-space-3); padding: 0; }
      li { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; padding: var(--wpk-space-2) 0; border-bottom: 1px solid var(--wpk-color-border); }
      li .who { flex: 1 1 10rem; overflow-wrap: anywhere; }
      .add { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; }
      select { font: inherit; color: var(--wpk-color-text); background: var(--wpk-color-bg); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-s); padding: var(--wpk-space-1); }
    `,
  ];

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('item')) void this.load();
  }

  private owner(): boolean {
    return this.item.owner_id === kit().member.id;
  }

  private async load(): Promise<void> {
    try {
      const shares: Share[] = [];
      for await (const share of kit().client.paginate('getFilesByFileIdShares', { params: { file_id: this.item.id }, query: { per_page: 100 } })) shares.push(share as Share);
      const known = await kit().bridge.members(shares.map((share) => share.member_id));
      this.names = new Map(known.map((member) => [member.id, member.name]));
      this.shares = shares;
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private nameOf(share: Share): string {
    return this.names.get(share.member_id) ?? 'A former member';
  }

  private async share(): Promise<void> {
    const chosen = await kit().bridge.pickMembers({ title: `Share ${this.item.name} with`, multiple: true });
    if (chosen.length === 0) return;
    const role = this.role;
    for (const member of chosen) {
      try {
        await kit().client.files.putFilesByFileIdSharesByMemberId({ params: { file_id: this.item.id, member_id: member.id }, body: { role } });
        toast(`${this.item.name} shared with ${member.name}`, 'success');
      } catch (error) {
        toast(errorText(error), 'danger');
      }
    }
    await this.load();
  }

  private async changeRole(share: Share, role: Role): Promise<void> {
    try {
      await kit().client.files.putFilesByFileIdSharesByMemberId({ params: { file_id: this.item.id, member_id: share.member_id }, body: { role } });
      toast(`${this.nameOf(share)} ${role === 'edit' ? 'can edit' : 'can view'} ${this.item.name}`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.load();
  }

  private async stop(share: Share): Promise<void> {
    const name = this.nameOf(share);
    if (!(await confirmAction({ title: `Stop sharing with ${name}?`, message: `${name} no longer sees ${this.item.name}.`, confirm_label: 'Stop sharing', danger: true }))) return;
    try {
      await kit().client.files.deleteFilesByFileIdSharesByMemberId({ params: { file_id: this.item.id, member_id: share.member_id } });
      toast(`${this.item.name} no longer shared with ${name}`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.load();
  }

  private roleSelect(label: string, value: Role, change: (role: Role) => void) {
    return html`<label><span class="wpk-visually-hidden">${label}</span>
      <select @change=${(event: Event) => change((event.target as HTMLSelectElement).value as Role)}>
        ${ROLES.map((role) => html`<option value=${role.value} ?selected=${role.value === value}>${role.label}</option>`)}
      </select></label>`;
  }

  protected override render() {
    const owner = this.owner();
    return html`<section aria-labelledby="sharing">
      <h2 id="sharing">Sharing</h2>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.shares === null && !this.error ? html`<wa-spinner label="Loading who it is shared with"></wa-spinner>` : nothing}
      ${this.shares?.length === 0 ? html`<p class="muted">Only you${owner ? '' : ' and its owner'} can see it.</p>` : nothing}
      ${this.shares?.length
        ? html`<ul aria-label=${`Shared with`}>
            ${this.shares.map(
              (share) => html`<li>
                <span class="who">${this.nameOf(share)}</span>
                ${owner
                  ? html`${this.roleSelect(`What ${this.nameOf(share)} may do`, share.role, (role) => void this.changeRole(share, role))}
                      <wa-button size="small" appearance="outlined" variant="danger" @click=${() => this.stop(share)}>Stop sharing<span class="wpk-visually-hidden"> with ${this.nameOf(share)}</span></wa-button>`
                  : html`<span class="muted">${share.role === 'edit' ? 'can edit' : 'can view'}</span>`}
              </li>`,
            )}
          </ul>`
        : nothing}
      ${owner
        ? html`<div class="add">
            ${this.roleSelect('What they may do', this.role, (role) => (this.role = role))}
            <wa-button @click=${() => this.share()}>Share with…</wa-button>
          </div>`
        : nothing}
    </section>`;
  }
}

customElements.define('files-shares', FilesShares);
