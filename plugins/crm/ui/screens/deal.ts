import { LitElement, css, errorText, html, kit, nothing, saveDownload, screenStyles, toast } from '@wpk/ui';
import { ACTIVITY_KIND, DEAL_STATUS, LIST_STYLES, QUOTE_STATUS, moneyText, type Activity, type Deal, type Quote } from '../api.js';

/**
 * `/deals/{id}`: a deal with its lines and quotes; won, lost with a reason, or reopened; a quote
 * made and sent; its activity (calls, mails, tasks and meetings other apps made for it), for those
 * who may read it.
 */
export class CrmDeal extends LitElement {
  static override properties = { dealId: { attribute: 'deal-id' }, deal: { state: true }, quotes: { state: true }, activities: { state: true }, signing: { state: true }, error: { state: true } };
  static override styles = [screenStyles, LIST_STYLES, css`
    .next-step { display: grid; gap: var(--wpk-space-1); max-width: 28rem; }
    .next-step label { font-weight: var(--wpk-font-weight-bold); }
    .next-step button { justify-self: start; margin-top: var(--wpk-space-2); }
    .overdue { color: var(--wpk-color-danger); font-weight: var(--wpk-font-weight-bold); }
    form.signature { display: grid; gap: var(--wpk-space-1); max-width: 28rem; margin-top: var(--wpk-space-2); }
    form.signature label { font-weight: var(--wpk-font-weight-bold); }
    form.signature button { justify-self: start; margin-top: var(--wpk-space-2); }
  `];
  declare dealId: string;
  declare deal: Deal | null;
  declare quotes: Quote[];
  /** The deal's timeline, newest first; null when the member may not read it. */
  declare activities: Activity[] | null;
  /** The quote whose signature form is open. */
  declare signing: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.dealId = '';
    this.deal = null;
    this.quotes = [];
    this.activities = null;
    this.signing = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.deal = (await kit().client.crm.getCrmDealsByDealId({ params: { deal_id: this.dealId } })).data as Deal;
      this.quotes = (await kit().client.crm.getCrmDealsByDealIdQuotes({ params: { deal_id: this.dealId }, query: { per_page: 50 } })).data as Quote[];
      void kit().bridge.title(this.deal.title);
    } catch (error) {
      this.error = errorText(error);
      return;
    }
    try {
      this.activities = (await kit().client.crm.getCrmActivities({ query: { subject_mrn: `mrn:crm:deal:${this.dealId}`, per_page: 50 } })).data as Activity[];
    } catch {
      // Without crm.activities.read the timeline is left out; the deal itself still shows.
      this.activities = null;
    }
  }

  private async setStatus(status: 'won' | 'lost' | 'open'): Promise<void> {
    const reason = String((this.renderRoot.querySelector('#lost-reason') as { value?: unknown } | null)?.value ?? '').trim();
    try {
      await kit().client.crm.patchCrmDealsByDealId({ params: { deal_id: this.dealId }, body: { status, ...(status === 'lost' && reason ? { lost_reason: reason } : {}) } });
      toast(status === 'open' ? 'Deal reopened' : `Deal ${status}`, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Saves the next step's text and due date from their fields (empty: none). */
  private async saveNextStep(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    try {
      await kit().client.crm.patchCrmDealsByDealId({ params: { deal_id: this.dealId }, body: { next_step: String(data.get('next_step') ?? '').trim() || null, next_step_due: String(data.get('next_step_due') ?? '') || null } });
      toast('Next step saved', 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async quote(): Promise<void> {
    try {
      const made = (await kit().client.crm.postCrmDealsByDealIdQuotes({ params: { deal_id: this.dealId }, body: {} })).data as Quote;
      toast(`Quote ${made.number} drafted`, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async send(quote: Quote): Promise<void> {
    try {
      await kit().client.crm.patchCrmQuotesByQuoteId({ params: { quote_id: quote.id }, body: { status: 'sent' } });
      toast(`Quote ${quote.number} sent`, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** The quote's PDF, as the customer receives it, saved by the browser (`Q-0001.pdf`). */
  private async download(quote: Quote): Promise<void> {
    try {
      const name = await saveDownload(`/crm/quotes/${encodeURIComponent(quote.id)}/pdf`, `${quote.number}.pdf`);
      toast(`${name} downloaded`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Sends the quote for signature to the signer the form names (the Sign app makes the envelope). */
  private async requestSignature(event: SubmitEvent, quote: Quote): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const signer = { name: String(data.get('signer_name') ?? '').trim(), email: String(data.get('signer_email') ?? '').trim() };
    const message = String(data.get('message') ?? '').trim();
    try {
      await kit().client.crm.postCrmQuotesByQuoteIdSignatureRequests({ params: { quote_id: quote.id }, body: { signers: [signer], ...(message ? { message } : {}) } });
      toast(`Quote ${quote.number} sent for signature to ${signer.name}`, 'success');
      this.signing = null;
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private signatureForm(quote: Quote) {
    return html`<form class="signature" aria-label=${`Signature for ${quote.number}`} @submit=${(event: SubmitEvent) => this.requestSignature(event, quote)}>
      <label for="signer-name">Signer's name</label>
      <input id="signer-name" name="signer_name" required maxlength="200" autocomplete="off" />
      <label for="signer-email">Signer's e-mail</label>
      <input id="signer-email" name="signer_email" type="email" required maxlength="320" autocomplete="off" />
      <label for="signature-message">Message (optional)</label>
      <textarea id="signature-message" name="message" maxlength="2000" rows="3"></textarea>
      <button type="submit">Send for signature</button>
    </form>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const deal = this.deal;
    if (!deal) return html`<wa-spinner label="Loading the deal"></wa-spinner>`;
    return html`<h1>${deal.title}</h1>
      <p>${DEAL_STATUS[deal.status]} · ${deal.stage_name} (${deal.probability}%) · ${moneyText(deal.amount, deal.currency)}${deal.close_date ? html` · closes <wpk-date value=${deal.close_date}></wpk-date>` : nothing}${deal.lost_reason ? ` · ${deal.lost_reason}` : ''}</p>
      <div class="actions">
        ${deal.status === 'open'
          ? html`<wa-button variant="brand" size="small" @click=${() => this.setStatus('won')}>Mark won</wa-button>
              <wa-input size="small" label="Lost reason" id="lost-reason" maxlength="1000"></wa-input>
              <wa-button variant="danger" size="small" @click=${() => this.setStatus('lost')}>Mark lost</wa-button>`
          : html`<wa-button size="small" @click=${() => this.setStatus('open')}>Reopen</wa-button>`}
      </div>
      <h2>Next step</h2>
      <form class="next-step" @submit=${(event: SubmitEvent) => this.saveNextStep(event)}>
        <label for="next-step">What is to be done next</label>
        <input id="next-step" name="next_step" maxlength="300" .value=${deal.next_step ?? ''} />
        <label for="next-step-due">By</label>
        <input id="next-step-due" name="next_step_due" type="date" .value=${deal.next_step_due ?? ''} />
        <button type="submit">Save next step</button>
        ${deal.next_step_overdue ? html`<p class="overdue" role="status">This next step is overdue.</p>` : nothing}
      </form>
      <h2>Lines</h2>
      ${deal.lines.length
        ? html`<div class="scroll"><table aria-label="Lines">
            <thead><tr><th scope="col">Description</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
            <tbody>${deal.lines.map((line) => html`<tr><td>${line.description}</td><td class="num">${line.quantity}</td><td class="num">${line.unit_price}</td><td class="num">${line.amount}</td></tr>`)}</tbody>
          </table></div>`
        : html`<p class="muted">No lines: the amount is as entered.</p>`}
      <h2>Quotes</h2>
      ${deal.status === 'open' && deal.lines.length ? html`<wa-button size="small" @click=${() => this.quote()}>Make a quote</wa-button>` : nothing}
      ${this.quotes.length
        ? html`<ul class="cards" aria-label="Quotes">${this.quotes.map((quote) => html`<li>
            <strong>${quote.number}</strong> · ${QUOTE_STATUS[quote.status]} · ${moneyText(quote.total, quote.currency)}
            ${quote.valid_until ? html`<div class="muted">Valid until <wpk-date value=${quote.valid_until}></wpk-date></div>` : nothing}
            <div class="actions">
              <wa-button size="small" appearance="outlined" @click=${() => this.download(quote)}>Download PDF<span class="wpk-visually-hidden"> of ${quote.number}</span></wa-button>
              ${quote.status === 'draft' ? html`<wa-button size="small" @click=${() => this.send(quote)}>Mark sent</wa-button>` : nothing}
              ${quote.status === 'draft' || quote.status === 'sent'
                ? html`<wa-button size="small" appearance="outlined" @click=${() => { this.signing = this.signing === quote.id ? null : quote.id; }}>Ask for signature<span class="wpk-visually-hidden"> on ${quote.number}</span></wa-button>`
                : nothing}
            </div>
            ${this.signing === quote.id && (quote.status === 'draft' || quote.status === 'sent') ? this.signatureForm(quote) : nothing}
          </li>`)}</ul>`
        : html`<p class="muted">No quote yet.</p>`}
      ${this.activities
        ? html`<h2>Activity</h2>
            ${this.activities.length
              ? html`<ul class="cards" aria-label="Activity">${this.activities.map((entry) => html`<li>
                  <strong>${ACTIVITY_KIND[entry.kind] ?? entry.kind}</strong> · ${entry.title}
                  <div class="muted"><wpk-date value=${entry.occurred_at} format="datetime"></wpk-date></div>
                </li>`)}</ul>`
              : html`<p class="muted">Nothing yet: calls, mails, tasks and meetings made for this deal show here.</p>`}`
        : nothing}`;
  }
}

customElements.define('crm-deal', CrmDeal);
