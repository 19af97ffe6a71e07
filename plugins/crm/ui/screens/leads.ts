import { LitElement, errorText, filledValues, html, kit, nothing, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { LEAD_STATUS, LIST_STYLES, type Lead } from '../api.js';

/** `/leads`: the leads, newest first; add one, mark it contacted, qualify it into a deal, or disqualify it with a reason. */
export class CrmLeads extends LitElement {
  static override properties = { leads: { state: true }, error: { state: true } };
  static override styles = [screenStyles, LIST_STYLES];
  declare leads: Lead[];
  declare error: string | null;

  constructor() {
    super();
    this.leads = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Leads');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.leads = (await kit().client.crm.getCrmLeads({ query: { per_page: 100 } })).data as Lead[];
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private readonly schema: FormSchema = {
    required: ['name'],
    properties: {
      name: { type: 'string', title: 'Name', maxLength: 200 },
      email: { type: 'string', title: 'E-mail', maxLength: 320 },
      company_name: { type: 'string', title: 'Company', maxLength: 300 },
      source: { type: 'string', title: 'Source', maxLength: 100 },
    },
  };

  private add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(event, (values) => kit().client.crm.postCrmLeads({ body: filledValues(values) as never }), () => this.load());
  }

  private async act(lead: Lead, action: 'contacted' | 'qualify' | 'disqualified'): Promise<void> {
    const reason = String((this.renderRoot.querySelector(`#reason-${lead.id}`) as { value?: unknown } | null)?.value ?? '').trim();
    try {
      if (action === 'qualify') await kit().client.crm.postCrmLeadsByLeadIdQualify({ params: { lead_id: lead.id }, body: {} });
      else await kit().client.crm.patchCrmLeadsByLeadId({ params: { lead_id: lead.id }, body: { status: action, ...(action === 'disqualified' && reason ? { disqualify_reason: reason } : {}) } });
      toast(action === 'qualify' ? `${lead.name} qualified: a deal was made` : `${lead.name}: ${LEAD_STATUS[action]}`, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    return html`<h1>Leads</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <h2>Add a lead</h2>
      <wpk-schema-form .schema=${this.schema} .value=${{}} submit-label="Add lead" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>
      <h2>All leads</h2>
      ${this.leads.length
        ? html`<ul class="cards" aria-label="Leads">${this.leads.map((lead) => html`<li>
            <strong>${lead.name}</strong>${lead.company_name ? ` · ${lead.company_name}` : ''}${lead.email ? ` · ${lead.email}` : ''}
            <div class="muted">${LEAD_STATUS[lead.status]}${lead.disqualify_reason ? ` · ${lead.disqualify_reason}` : ''}</div>
            ${lead.status === 'new' || lead.status === 'contacted'
              ? html`<div class="actions">
                  ${lead.status === 'new' ? html`<wa-button size="small" @click=${() => this.act(lead, 'contacted')}>Contacted</wa-button>` : nothing}
                  <wa-button variant="brand" size="small" @click=${() => this.act(lead, 'qualify')}>Qualify</wa-button>
                  <wa-input size="small" label="Reason (to disqualify)" id=${`reason-${lead.id}`} maxlength="1000"></wa-input>
                  <wa-button variant="danger" size="small" @click=${() => this.act(lead, 'disqualified')}>Disqualify</wa-button>
                </div>`
              : nothing}
          </li>`)}</ul>`
        : html`<p class="muted">No lead yet.</p>`}`;
  }
}

customElements.define('crm-leads', CrmLeads);
