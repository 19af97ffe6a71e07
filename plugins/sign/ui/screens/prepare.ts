import { LitElement, css, errorText, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import { api, base64Of, SIGN_STYLES, type Envelope } from '../api.js';
import { FIELD_SIZES, fitted, type PlacedField } from '../placer.js';
import '../placer.js';

interface RecipientRow { name: string; email: string; role: string; group: number }

const newRecipient = (group: number): RecipientRow => ({ name: '', email: '', role: 'signer', group });

/**
 * `/new`: prepare an envelope — a PDF, recipients in ordered groups, each signer's fields placed on
 * the rendered pages (`<sign-placer>`, with exact positions as numbers beside) — save it as a draft, or send it.
 */
export class SignPrepare extends LitElement {
  static override properties = { recipients: { state: true }, fields: { state: true }, pdf: { state: true }, error: { state: true }, busy: { state: true } };
  static override styles = [screenStyles, SIGN_STYLES, css`.exact summary { cursor: pointer; } .exact .row { margin-block: var(--wpk-space-2); }`];
  declare recipients: RecipientRow[];
  declare fields: PlacedField[];
  declare pdf: Uint8Array | null;
  declare error: string | null;
  declare busy: boolean;

  constructor() {
    super();
    this.recipients = [newRecipient(1)];
    this.fields = [];
    this.pdf = null;
    this.error = null;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Prepare an envelope');
  }

  private change(index: number, patch: Partial<RecipientRow>): void {
    this.recipients = this.recipients.map((row, at) => (at === index ? { ...row, ...patch } : row));
  }

  private changeField(id: number, patch: Partial<PlacedField>): void {
    this.fields = this.fields.map((field) => (field.id === id ? fitted({ ...field, ...patch }) : field));
  }

  private removeRecipient(index: number): void {
    this.recipients = this.recipients.filter((_, at) => at !== index);
    this.fields = this.fields.filter((field) => field.owner !== index).map((field) => (field.owner > index ? { ...field, owner: field.owner - 1 } : field));
  }

  private async choose(event: Event): Promise<void> {
    const file = (event.target as HTMLInputElement).files?.[0];
    this.pdf = file ? new Uint8Array(await file.arrayBuffer()) : null;
  }

  private async save(send: boolean): Promise<void> {
    const form = this.renderRoot.querySelector('form')!;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const file = data.get('document') as File | null;
    if (!file || file.size === 0) {
      this.error = 'Choose the PDF to sign';
      return;
    }
    this.busy = true;
    this.error = null;
    try {
      const body = {
        title: String(data.get('title')),
        message: String(data.get('message') ?? ''),
        document: { filename: file.name, data_base64: await base64Of(file) },
        recipients: this.recipients.map((row, index) => ({
          name: row.name, email: row.email, role: row.role, group: row.group,
          fields: row.role === 'signer' ? this.fields.filter((field) => field.owner === index).map(({ type, page, x, y, width, height }) => ({ type, page, x, y, width, height })) : [],
        })),
      };
      let envelope = await api<Envelope>('POST', '/sign/envelopes', body);
      if (send) envelope = await api<Envelope>('POST', `/sign/envelopes/${envelope.id}/send`, {});
      toast(send ? `Sent: ${envelope.title}` : `Draft saved: ${envelope.title}`, 'success');
      navigate(`/envelopes/${envelope.id}`);
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  /** The numbers of one field: the keyboard-free fallback of the placer, and exact positions. */
  private renderField(field: PlacedField, number: number) {
    const name = `recipient ${field.owner + 1} field ${number}`;
    const share = (key: 'x' | 'y' | 'width' | 'height', label: string) => html`<label>${label}<input type="number" min="0" max="100" step="0.1" .value=${String(Math.round(field[key] * 1000) / 10)} aria-label=${`${name} ${label.toLowerCase()}`}
      @change=${(event: Event) => this.changeField(field.id, { [key]: Number((event.target as HTMLInputElement).value) / 100 })}></label>`;
    return html`<div class="row" role="group" aria-label=${`Field ${number} of recipient ${field.owner + 1}`}>
      <label>Field type<select aria-label=${`${name} type`} @change=${(event: Event) => this.changeField(field.id, { type: (event.target as HTMLSelectElement).value })}>
        ${Object.keys(FIELD_SIZES).map((type) => html`<option value=${type} ?selected=${type === field.type}>${type[0].toUpperCase()}${type.slice(1)}</option>`)}
      </select></label>
      <label>Page<input type="number" min="1" max="1000" .value=${String(field.page)} aria-label=${`${name} page`} @change=${(event: Event) => this.changeField(field.id, { page: Math.max(1, Math.round(Number((event.target as HTMLInputElement).value)) || 1) })}></label>
      ${share('x', 'From the left (%)')}${share('y', 'From the top (%)')}${share('width', 'Width (%)')}${share('height', 'Height (%)')}
      <button type="button" @click=${() => { this.fields = this.fields.filter((one) => one.id !== field.id); }}>Remove field</button>
    </div>`;
  }

  private renderExact() {
    const signers = this.recipients.map((row, index) => ({ row, index })).filter(({ row }) => row.role === 'signer');
    const count = this.fields.filter((field) => signers.some(({ index }) => index === field.owner)).length;
    return html`<details class="exact">
      <summary>Exact positions (${count} ${count === 1 ? 'field' : 'fields'})</summary>
      <p class="muted">Each field as a share of its page from the top-left corner, in per cent.</p>
      ${signers.map(({ row, index }) => {
        const own = this.fields.filter((field) => field.owner === index);
        return html`<fieldset><legend>${row.name || `Recipient ${index + 1}`}</legend>
          ${own.length === 0 ? html`<p class="muted">No field yet.</p>` : own.map((field, at) => this.renderField(field, at + 1))}
        </fieldset>`;
      })}
    </details>`;
  }

  protected override render() {
    return html`<h1>Prepare an envelope</h1>
      <form @submit=${(event: Event) => { event.preventDefault(); void this.save(true); }}>
        <div class="row">
          <label>Title<input name="title" required maxlength="200"></label>
          <label>PDF to sign<input name="document" type="file" accept="application/pdf" required @change=${(event: Event) => this.choose(event)}></label>
        </div>
        <label>Message to the recipients<textarea name="message" rows="2" maxlength="4000"></textarea></label>
        ${this.recipients.map((row, index) => html`<fieldset>
          <legend>Recipient ${index + 1}</legend>
          <div class="row">
            <label>Name<input required maxlength="200" .value=${row.name} aria-label=${`Recipient ${index + 1} name`} @input=${(event: Event) => this.change(index, { name: (event.target as HTMLInputElement).value })}></label>
            <label>E-mail<input type="email" required maxlength="254" .value=${row.email} aria-label=${`Recipient ${index + 1} e-mail`} @input=${(event: Event) => this.change(index, { email: (event.target as HTMLInputElement).value })}></label>
            <label>Role<select aria-label=${`Recipient ${index + 1} role`} @change=${(event: Event) => this.change(index, { role: (event.target as HTMLSelectElement).value })}>
              ${[['signer', 'Signs'], ['approver', 'Approves'], ['copy', 'Gets a copy']].map(([value, label]) => html`<option value=${value} ?selected=${value === row.role}>${label}</option>`)}
            </select></label>
            <label>Signing order (group)<input type="number" min="1" max="50" required .value=${String(row.group)} aria-label=${`Recipient ${index + 1} group`} @input=${(event: Event) => this.change(index, { group: Number((event.target as HTMLInputElement).value) })}></label>
          </div>
          ${this.recipients.length > 1 ? html`<div class="actions"><button type="button" @click=${() => this.removeRecipient(index)}>Remove recipient ${index + 1}</button></div>` : ''}
        </fieldset>`)}
        <div class="actions">
          <button type="button" @click=${() => { this.recipients = [...this.recipients, newRecipient(Math.max(...this.recipients.map((one) => one.group)))]; }}>Add a recipient</button>
        </div>
        <h2>Place the fields</h2>
        <sign-placer .document=${this.pdf} .fields=${this.fields} .signers=${this.recipients.flatMap((row, index) => (row.role === 'signer' ? [{ owner: index, name: row.name.trim() || `Recipient ${index + 1}` }] : []))}
          @fields-change=${(event: CustomEvent<PlacedField[]>) => { this.fields = event.detail; }}></sign-placer>
        ${this.renderExact()}
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
        <div class="actions">
          <button type="button" ?disabled=${this.busy} @click=${() => this.save(false)}>Save as draft</button>
          <button type="submit" class="primary" ?disabled=${this.busy}>Send for signature</button>
        </div>
      </form>`;
  }
}

customElements.define('sign-prepare', SignPrepare);
