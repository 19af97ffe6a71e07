import { LitElement, css, html, unsafeCSS } from 'lit';
import { kit } from '../app.js';
import type { PickedMember, SearchHit } from '../bridge/protocol.js';
import { fillRecordChip, recordChipCss, recordsThroughShell } from '../records.js';
import { sharedStyles } from './shared-styles.js';
import './wa.js';

/**
 * `<wpk-member-picker label="Assignees" multiple>`: the chosen members as removable chips and a
 * button that opens the shell's member picker (the member directory is the platform's: an app's
 * token cannot read it, the shell can). Fires `change`; `value` is the chosen members.
 */
export class WpkMemberPicker extends LitElement {
  static override properties = { label: { type: String }, multiple: { type: Boolean }, value: { attribute: false } };
  declare label: string;
  declare multiple: boolean;
  declare value: PickedMember[];

  constructor() {
    super();
    this.label = 'Members';
    this.multiple = false;
    this.value = [];
  }

  static override styles = [sharedStyles, css`
    :host { display: block; }
    .chips { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); align-items: center; margin-top: var(--wpk-space-1); }
    .chip { display: inline-flex; gap: var(--wpk-space-1); align-items: center; padding: 0 var(--wpk-space-2); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-pill); }
    .label { font-weight: var(--wpk-font-weight-bold); }
  `];

  private async pick(): Promise<void> {
    const chosen = await kit().bridge.pickMembers({ title: this.label, multiple: this.multiple });
    if (chosen.length === 0) return;
    const merged = this.multiple ? [...this.value, ...chosen.filter((member) => !this.value.some((held) => held.id === member.id))] : chosen.slice(0, 1);
    this.set(merged);
  }

  private set(value: PickedMember[]): void {
    this.value = value;
    this.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  }

  protected override render() {
    return html`<div role="group" aria-label=${this.label}>
      <span class="label">${this.label}</span>
      <div class="chips">
        ${this.value.map(
          (member) => html`<span class="chip">${member.name}<wa-button size="small" appearance="plain" @click=${() => this.set(this.value.filter((held) => held.id !== member.id))}>Remove<span class="wpk-visually-hidden"> ${member.name}</span></wa-button></span>`,
        )}
        <wa-button size="small" @click=${() => this.pick()}>${this.value.length && !this.multiple ? 'Change' : 'Add'}<span class="wpk-visually-hidden"> ${this.label}</span></wa-button>
      </div>
    </div>`;
  }
}

/**
 * `<wpk-file-picker label="Attachments" multiple>`: picks files from the Files app through the
 * shell's picker (`GET /search?app=files`, run by the shell with the member's session). `value` is
 * the chosen search results (`{type, id, title, subtitle, url}`); fires `change`.
 */
export class WpkFilePicker extends LitElement {
  static override properties = { label: { type: String }, multiple: { type: Boolean }, value: { attribute: false } };
  declare label: string;
  declare multiple: boolean;
  declare value: SearchHit[];

  constructor() {
    super();
    this.label = 'Files';
    this.multiple = false;
    this.value = [];
  }

  static override styles = WpkMemberPicker.styles;

  private async pick(): Promise<void> {
    const chosen = await kit().bridge.pickFiles({ title: this.label, multiple: this.multiple });
    if (chosen.length === 0) return;
    this.value = this.multiple ? [...this.value, ...chosen] : chosen.slice(0, 1);
    this.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  }

  protected override render() {
    return html`<div role="group" aria-label=${this.label}>
      <span class="label">${this.label}</span>
      <div class="chips">
        ${this.value.map((file) => html`<span class="chip">${file.title}</span>`)}
        <wa-button size="small" @click=${() => this.pick()}>Choose<span class="wpk-visually-hidden"> ${this.label}</span></wa-button>
      </div>
    </div>`;
  }
}

/**
 * `<wpk-mrn-chip mrn="mrn:contacts:contact:…">`: any record by its MRN, as the editor's record
 * chip shows it (../records.ts): its type and title as `GET /search` shows it to this member,
 * linking to its page in its app; "Restricted record" when search does not show it.
 */
export class WpkMrnChip extends LitElement {
  static override properties = { mrn: { type: String } };
  declare mrn: string;

  constructor() {
    super();
    this.mrn = '';
  }

  static override styles = css`
    :host { display: inline-block; }
    ${unsafeCSS(recordChipCss(''))}
  `;

  protected override updated(changed: Map<string, unknown>): void {
    if (!changed.has('mrn')) return;
    const chip = this.renderRoot.querySelector<HTMLElement>('.wpk-record');
    if (chip) fillRecordChip(chip, this.mrn, recordsThroughShell(), () => this.mrn);
  }

  protected override render() {
    return html`<span class="wpk-record"></span>`;
  }
}

customElements.define('wpk-member-picker', WpkMemberPicker);
customElements.define('wpk-file-picker', WpkFilePicker);
customElements.define('wpk-mrn-chip', WpkMrnChip);

declare global {
  interface HTMLElementTagNameMap {
    'wpk-member-picker': WpkMemberPicker;
    'wpk-file-picker': WpkFilePicker;
    'wpk-mrn-chip': WpkMrnChip;
  }
}
