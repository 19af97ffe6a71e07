import { LitElement, confirmAction, css, errorText, html, isApiError, kit, nothing, screenStyles, toast } from '@wpk/ui';
import { bytes, type Stats, type Transfer } from '../api.js';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A member's line of the storage overview, with a name from the shell (null: they left). */
interface Holder {
  member_id: string;
  member_mrn: string;
  bytes: number;
  versions: number;
  name: string | null;
}

/**
 * `/admin`: the admin's offboarding transfer. The workspace's storage, the members who hold files
 * (those who left included: their files wait for a transfer) and, on each, **Hand over files**:
 * the shell's member picker chooses who receives them, the shell asks, and
 * `POST /admin/file-transfers` moves everything at once (a root name the recipient already uses is
 * suffixed; the screen lists the renames). Owners and admins only: the section is hidden for other
 * members, and the API's 403 shows here if one opens the path.
 */
export class FilesOffboarding extends LitElement {
  static override properties = { stats: { state: true }, holders: { state: true }, error: { state: true }, forbidden: { state: true }, result: { state: true } };
  declare stats: Stats | null;
  declare holders: Holder[];
  declare error: string | null;
  /** The API's refusal for a member who is not an owner or admin. */
  declare forbidden: string | null;
  /** The last transfer and whose files it moved, for the summary. */
  declare result: { transfer: Transfer; from: string; to: string } | null;

  constructor() {
    super();
    this.stats = null;
    this.holders = [];
    this.error = null;
    this.forbidden = null;
    this.result = null;
  }

  static override styles = [
    screenStyles,
    css`
      h1 { margin: 0 0 var(--wpk-space-2); }
      h2 { margin: var(--wpk-space-4) 0 var(--wpk-space-2); }
      dl.summary { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2) var(--wpk-space-5); margin: 0 0 var(--wpk-space-3); }
      dl.summary div { display: flex; flex-direction: column; }
      dt { color: var(--wpk-color-text-muted); font-size: var(--wpk-font-size-s); }
      dd { margin: 0; font-weight: var(--wpk-font-weight-bold); }
      .wrap { overflow-x: auto; }
      table { border-collapse: collapse; width: 100%; }
      caption { text-align: left; font-weight: var(--wpk-font-weight-bold); padding-bottom: var(--wpk-space-2); }
      th, td { text-align: left; padding: var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); vertical-align: middle; overflow-wrap: anywhere; }
      td.act { text-align: right; }
      .done { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); background: var(--wpk-color-success-quiet); }
      .done p { margin: 0 0 var(--wpk-space-1); }
      @media (max-width: 600px) { .optional { display: none; } }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Offboarding');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const stats = (await kit().client.files.getAdminFileStats({})).data as Stats;
      const known = await kit().bridge.members(stats.by_member.map((row) => row.member_id));
      const names = new Map(known.map((member) => [member.id, member.name]));
      this.holders = stats.by_member.map((row) => ({ ...row, name: names.get(row.member_id) ?? null }));
      this.stats = stats;
      this.error = null;
    } catch (error) {
      if (isApiError(error) && error.status === 403) this.forbidden = error.error;
      else this.error = errorText(error);
    }
  }

  private label(holder: Holder): string {
    return holder.name ?? `A former member (${holder.member_mrn})`;
  }

  private async handOver(holder: Holder): Promise<void> {
    const from = this.label(holder);
    const [to] = await kit().bridge.pickMembers({ title: `Who receives the files of ${holder.name ?? 'this former member'}?` });
    if (!to) return;
    if (!(await confirmAction({ title: `Hand the files of ${from} to ${to.name}?`, message: `Every file and folder of ${from}, the trash included, becomes ${to.name}'s, with its versions and shares. A name ${to.name} already uses gets a number.`, confirm_label: 'Hand over files' }))) return;
    try {
      const transfer = (await kit().client.files.postAdminFileTransfers({ body: { from_mrn: holder.member_mrn, to_mrn: `mrn:account:member:${to.id}` } })).data as Transfer;
      this.result = { transfer, from, to: to.name };
      toast(`${count(transfer.files, 'file')} and ${count(transfer.folders, 'folder')} handed to ${to.name}`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    await this.load();
  }

  private summary(stats: Stats) {
    return html`<dl class="summary">
      <div><dt>Used</dt><dd>${bytes(stats.used_bytes)} of ${bytes(stats.quota_bytes)}</dd></div>
      <div><dt>Files</dt><dd>${stats.files}</dd></div>
      <div><dt>Folders</dt><dd>${stats.folders}</dd></div>
      <div><dt>In the trash</dt><dd>${stats.trashed_items}</dd></div>
    </dl>`;
  }

  private done() {
    if (!this.result) return nothing;
    const { transfer, from, to } = this.result;
    return html`<div class="done" role="status">
      <p>${from}: ${count(transfer.files, 'file')} and ${count(transfer.folders, 'folder')} handed to ${to}.</p>
      ${transfer.renamed.length
        ? html`<p>Renamed, as ${to} already had the name:</p>
            <ul>${transfer.renamed.map((rename) => html`<li>${rename.from_name} → ${rename.to_name}</li>`)}</ul>`
        : nothing}
    </div>`;
  }

  protected override render() {
    if (this.forbidden) return html`<h1>Offboarding</h1><p class="error" role="alert">${this.forbidden}</p>`;
    if (this.error) return html`<h1>Offboarding</h1><p class="error" role="alert">${this.error}</p>`;
    const stats = this.stats;
    if (!stats) return html`<wa-spinner label="Loading the workspace's storage"></wa-spinner>`;
    return html`<h1>Offboarding</h1>
      <p class="muted">When someone leaves, hand their files and folders to a colleague. Members who left keep their files here until you do.</p>
      ${this.summary(stats)}
      ${this.done()}
      <h2>Files by member</h2>
      <div class="wrap">
        <table>
          <caption class="wpk-visually-hidden">Members who hold files, largest first</caption>
          <thead><tr><th scope="col">Member</th><th scope="col">Size</th><th scope="col" class="optional">Versions</th><th scope="col"><span class="wpk-visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            ${this.holders.map(
              (holder) => html`<tr>
                <th scope="row">${this.label(holder)}</th>
                <td>${bytes(holder.bytes)}</td>
                <td class="optional">${holder.versions}</td>
                <td class="act"><wa-button size="small" appearance="outlined" @click=${() => this.handOver(holder)}>Hand over files<span class="wpk-visually-hidden"> of ${this.label(holder)}</span></wa-button></td>
              </tr>`,
            )}
          </tbody>
        </table>
        ${this.holders.length === 0 ? html`<p class="muted" role="status">No member holds files.</p>` : nothing}
      </div>`;
  }
}

customElements.define('files-offboarding', FilesOffboarding);
