import { LitElement, errorText, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import { api, base64Of, SIGN_STYLES, type Envelope } from '../api.js';

interface FieldRow { type: string; page: number; x: number; y: number }
interface RecipientRow { name: string; email: string; role: string; group: number; fields: FieldRow[] }

const FIELD_SIZES: Record<string, { width: number; height: number }> = { signature: { width: 0.3, height: 0.06 }, initials: { width: 0.1, height: 0.05 }, date: { width: 0.2, height: 0.04 }, text: { width: 0.4, height: 0.04 }, checkbox: { width: 0.03, height: 0.03 } };
const newRecipient = (group: number): RecipientRow => ({ name: '', email: '', role: 'signer', group, fields: [{ type: 'signature', page: 1, x: 10, y: 80 }] });

/** `/new`: prepare an envelope — a PDF, recipients in ordered groups, each signer's fields — save it as a draft, or send it. */
export class SignPrepare extends LitElement {
  static override properties = { recipients: { state: true }, error: { state: true }, busy: { state: true } };
  static override styles = [screenStyles, SIGN_STYLES];
  declare recipients: RecipientRow[];
  declare error: string | null;
  declare busy: boolean;

  constructor() {
    super();
    this.recipients = [newRecipient(1)];
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

  private changeField(index: number, fieldIndex: number, patch: Partial<FieldRow>): void {
    const row = this.recipients[index];
    this.change(index, { fields: row.fields.map((field, at) => (at === fieldIndex ? { ...field, ...patch } : field)) });
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
        recipients: this.recipients.map((row) => ({
          name: row.name, email: row.email, role: row.role, group: row.group,
          fields: row.role === 'signer' ? row.fields.map((field) => ({ type: field.type, page: field.page, x: field.x / 100, y: field.y / 100, ...FIELD_SIZES[field.type] })) : [],
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

  private renderField(index: number, fieldIndex: number, field: FieldRow) {
    const name = `recipient ${index + 1} field ${fieldIndex + 1}`;
    return html`<div class="row" role="group" aria-label=${`Field ${fieldIndex + 1} of recipient ${index + 1}`}>
      <label>Field type<select aria-label=${`${name} type`} @change=${(event: Event) => this.changeField(index, fieldIndex, { type: (event.target as HTMLSelectElement).value })}>
        ${Object.keys(FIELD_SIZES).map((type) => html`<option value=${type} ?selected=${type === field.type}>${type[0].toUpperCase()}${type.slice(1)}</option>`)}
      </select></label>
      <label>Page<input type="number" min="1" max="1000" required .value=${String(field.page)} aria-label=${`${name} page`} @input=${(event: Event) => this.changeField(index, fieldIndex, { page: Number((event.target as HTMLInputElement).value) })}></label>
      <label>From the left (%)<input type="number" min="0" max="90" required .value=${String(field.x)} aria-label=${`${name} from the left (%)`} @input=${(event: Event) => this.changeField(index, fieldIndex, { x: Number((event.target as HTMLInputElement).value) })}></label>
      <label>From the top (%)<input type="number" min="0" max="90" required .value=${String(field.y)} aria-label=${`${name} from the top (%)`} @input=${(event: Event) => this.changeField(index, fieldIndex, { y: Number((event.target as HTMLInputElement).value) })}></label>
      <button type="button" @click=${() => this.change(index, { fields: this.recipients[index].fields.filter((_, at) => at !== fieldIndex) })}>Remove field</button>
    </div>`;
  }

  protected override render() {
    return html`<h1>Prepare an envelope</h1>
      <form @submit=${(event: Event) => { event.preventDefault(); void this.save(true); }}>
        <div class="row">
          <label>Title<input name="title" required maxlength="200"></label>
          <label>PDF to sign<input name="document" type="file" accept="application/pdf" required></label>
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
          ${row.role === 'signer' ? html`<p class="muted">Fields, placed as a share of the page from its top-left corner:</p>
            ${row.fields.map((field, fieldIndex) => this.renderField(index, fieldIndex, field))}
            <button type="button" @click=${() => this.change(index, { fields: [...row.fields, { type: 'text', page: 1, x: 10, y: 60 }] })}>Add a field</button>` : ''}
          ${this.recipients.length > 1 ? html`<div class="actions"><button type="button" @click=${() => { this.recipients = this.recipients.filter((_, at) => at !== index); }}>Remove recipient ${index + 1}</button></div>` : ''}
        </fieldset>`)}
        <div class="actions">
          <button type="button" @click=${() => { this.recipients = [...this.recipients, newRecipient(Math.max(...this.recipients.map((one) => one.group)))]; }}>Add a recipient</button>
        </div>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
        <div class="actions">
          <button type="button" ?disabled=${this.busy} @click=${() => this.save(false)}>Save as draft</button>
          <button type="submit" class="primary" ?disabled=${this.busy}>Send for signature</button>
        </div>
      </form>`;
  }
}

customElements.define('sign-prepare', SignPrepare);
