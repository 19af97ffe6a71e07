import { LitElement, appLink, errorText, html, kit, screenStyles, toast } from '@wpk/ui';
import { api, ENVELOPE_LABELS, RECIPIENT_LABELS, SIGN_STYLES, STEP_LABELS, when, type AuditEvent, type Envelope } from '../api.js';

/** `/envelopes/:id`: an envelope's status, recipients (with the links to copy), send and void, and its audit trail. */
export class SignEnvelope extends LitElement {
  static override properties = { envelopeId: { attribute: false }, envelope: { state: true }, trail: { state: true }, error: { state: true } };
  static override styles = [screenStyles, SIGN_STYLES];
  declare envelopeId: string;
  declare envelope: Envelope | null;
  declare trail: AuditEvent[];
  declare error: string | null;

  constructor() {
    super();
    this.envelope = null;
    this.trail = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.envelope = await api<Envelope>('GET', `/sign/envelopes/${this.envelopeId}`);
      this.trail = await api<AuditEvent[]>('GET', `/sign/envelopes/${this.envelopeId}/audit`, undefined, { per_page: 100 });
      void kit().bridge.title(this.envelope.title);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async act(path: string, body: unknown, done: string): Promise<void> {
    try {
      await api('POST', `/sign/envelopes/${this.envelopeId}/${path}`, body);
      toast(done, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async voidIt(event: Event): Promise<void> {
    event.preventDefault();
    const reason = String(new FormData(event.target as HTMLFormElement).get('reason') ?? '').trim();
    await this.act('void', { reason }, 'Envelope voided');
  }

  protected override render() {
    const envelope = this.envelope;
    if (!envelope) return html`<h1>Envelope</h1>${this.error ? html`<p class="error" role="alert">${this.error}</p>` : html`<p class="muted">Loading…</p>`}`;
    const mine = envelope.owner_id === kit().member.id;
    return html`<p class="back">${appLink('/', '← Envelopes')}</p>
      <h1>${envelope.title}</h1>
      <p><strong>${ENVELOPE_LABELS[envelope.status ?? 'draft']}</strong>${envelope.status === 'sent' ? html` · group ${envelope.current_group} is signing` : ''}${envelope.reason ? html` · ${envelope.reason}` : ''}</p>
      <p class="muted">${envelope.document.filename} · ${envelope.document.pages} page${envelope.document.pages === 1 ? '' : 's'} · SHA-256 <span class="link">${envelope.document.sha256}</span></p>
      ${envelope.final_sha256 ? html`<p class="muted">Final file SHA-256 <span class="link">${envelope.final_sha256}</span></p>` : ''}
      ${mine && envelope.status === 'draft' ? html`<div class="actions"><button class="primary" @click=${() => this.act('send', {}, 'Envelope sent')}>Send for signature</button></div>` : ''}
      <h2>Recipients</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Recipients, scrollable"><table aria-label="Recipients">
        <thead><tr><th scope="col">Group</th><th scope="col">Recipient</th><th scope="col">Role</th><th scope="col">Status</th></tr></thead>
        <tbody>${envelope.recipients.map((recipient) => html`<tr>
          <td>${recipient.group}</td>
          <td>${recipient.name} <span class="muted">${recipient.email}</span>${recipient.signing_url ? html`<div class="link" aria-label=${`Signing link of ${recipient.name}`}>${recipient.signing_url}</div>` : ''}</td>
          <td>${recipient.role === 'signer' ? 'Signs' : recipient.role === 'approver' ? 'Approves' : 'Gets a copy'}</td>
          <td>${RECIPIENT_LABELS[recipient.status ?? 'pending']}${recipient.signed_at ? html` <span class="muted">${when(recipient.signed_at)}</span>` : ''}</td>
        </tr>`)}</tbody>
      </table></div>
      ${mine && (envelope.status === 'draft' || envelope.status === 'sent') ? html`<form class="actions" @submit=${(event: Event) => this.voidIt(event)}>
        <label>Reason to void<input name="reason" required maxlength="1000"></label><button type="submit">Void</button>
      </form>` : ''}
      <h2>Audit trail</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Audit trail, scrollable"><table aria-label="Audit trail">
        <thead><tr><th scope="col">When</th><th scope="col">Step</th><th scope="col">Who</th><th scope="col">From</th></tr></thead>
        <tbody>${this.trail.map((row) => html`<tr><td>${when(row.at)}</td><td>${STEP_LABELS[row.action] ?? row.action}</td><td>${row.actor}</td><td class="muted">${row.ip ?? ''} ${row.user_agent ?? ''}</td></tr>`)}</tbody>
      </table></div>`;
  }
}

customElements.define('sign-envelope', SignEnvelope);
