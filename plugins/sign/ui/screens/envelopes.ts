import { LitElement, appLink, errorText, html, kit, screenStyles } from '@wpk/ui';
import { api, ENVELOPE_LABELS, SIGN_STYLES, when, type Envelope } from '../api.js';

/** `/`: the envelopes the member sends or signs, newest first. */
export class SignEnvelopes extends LitElement {
  static override properties = { envelopes: { state: true }, error: { state: true } };
  static override styles = [screenStyles, SIGN_STYLES];
  declare envelopes: Envelope[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.envelopes = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Envelopes');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.envelopes = await api<Envelope[]>('GET', '/sign/envelopes', undefined, { per_page: 100 });
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    return html`<h1>Envelopes</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <div class="actions">${appLink('/new', 'Prepare an envelope')}</div>
      ${this.envelopes === null
        ? html`<p class="muted">Loading…</p>`
        : this.envelopes.length
          ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Envelopes, scrollable"><table aria-label="Envelopes">
              <thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Recipients</th><th scope="col">Changed</th></tr></thead>
              <tbody>${this.envelopes.map((envelope) => html`<tr>
                <td>${appLink(`/envelopes/${envelope.id}`, envelope.title)}</td>
                <td>${ENVELOPE_LABELS[envelope.status ?? 'draft']}${envelope.status === 'sent' && envelope.current_group ? html` <span class="muted">(group ${envelope.current_group})</span>` : ''}</td>
                <td>${envelope.recipients.filter((one) => one.status === 'signed').length} of ${envelope.recipients.filter((one) => one.role !== 'copy').length} signed</td>
                <td>${when(envelope.updated_at, 'date')}</td>
              </tr>`)}</tbody>
            </table></div>`
          : html`<p class="muted">No envelope yet.</p>`}`;
  }
}

customElements.define('sign-envelopes', SignEnvelopes);
