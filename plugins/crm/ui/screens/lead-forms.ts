import { LitElement, errorText, filledValues, html, kit, nothing, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { LIST_STYLES, type LeadForm } from '../api.js';

/**
 * `/lead-forms`: the web-to-lead forms (each a public page by token, whose posts become leads),
 * with each form's page to open or share, a form to add one, and retiring one (its page answers
 * 404 from then on; the leads it brought stay).
 */
export class CrmLeadForms extends LitElement {
  static override properties = { forms: { state: true }, error: { state: true } };
  static override styles = [screenStyles, LIST_STYLES];
  declare forms: LeadForm[];
  declare error: string | null;

  constructor() {
    super();
    this.forms = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Web forms');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.forms = (await kit().client.crm.getCrmLeadForms({ query: { per_page: 100 } })).data as LeadForm[];
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private readonly schema: FormSchema = {
    required: ['name'],
    properties: {
      name: { type: 'string', title: 'Name', description: 'What members call the form: Website contact', maxLength: 200 },
      source: { type: 'string', title: 'Source of its leads', description: "Default: web form", maxLength: 100 },
    },
  };

  private add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        const made = (await kit().client.crm.postCrmLeadForms({ body: filledValues(values) as never })).data as LeadForm;
        toast(`Form ${made.name} added`, 'success');
      },
      () => this.load(),
    );
  }

  private async retire(leadForm: LeadForm): Promise<void> {
    try {
      await kit().client.crm.deleteCrmLeadFormsByFormId({ params: { form_id: leadForm.id } });
      toast(`Form ${leadForm.name} retired`, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    return html`<h1>Web forms</h1>
      <p class="muted">Each form is a public page: what a visitor sends there becomes a new lead.</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.forms.length
        ? html`<ul class="cards" aria-label="Web forms">${this.forms.map((leadForm) => html`<li>
            <strong>${leadForm.name}</strong> · ${leadForm.source}${leadForm.active ? nothing : html` · <span class="muted">retired</span>`}
            ${leadForm.active
              ? html`<div class="actions">
                  <a href=${leadForm.page_url} target="_blank" rel="noopener">Open the page<span class="wpk-visually-hidden"> of ${leadForm.name}</span></a>
                  <wa-button size="small" variant="danger" appearance="outlined" @click=${() => this.retire(leadForm)}>Retire<span class="wpk-visually-hidden"> ${leadForm.name}</span></wa-button>
                </div>`
              : nothing}
          </li>`)}</ul>`
        : html`<p class="muted">No web form yet.</p>`}
      <h2>Add a web form</h2>
      <wpk-schema-form .schema=${this.schema} .value=${{}} submit-label="Add web form" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>`;
  }
}

customElements.define('crm-lead-forms', CrmLeadForms);
