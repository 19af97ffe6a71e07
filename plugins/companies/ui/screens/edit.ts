import { LitElement, css, errorText, html, isApiError, kit, navigate, sharedStyles, toast, type FormSchema, type WpkSchemaForm } from '@wpk/ui';
import { SIZES, appLink, type Company } from '../api.js';

/** The form of a company: the bounds are the API's (`POST /companies`, `PUT /companies/{id}`); the address's parts are fields of their own. */
const FORM: FormSchema = {
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
    domain: { type: 'string', title: 'Domain', maxLength: 300, description: 'Its website, such as acme.com (stored without https:// or www.).' },
    industry: { type: 'string', title: 'Industry', maxLength: 100 },
    size: { type: 'string', title: 'Employees', enum: [...SIZES] },
    street: { type: 'string', title: 'Street', maxLength: 200 },
    postal_code: { type: 'string', title: 'Postal code', maxLength: 20 },
    city: { type: 'string', title: 'City', maxLength: 100 },
    region: { type: 'string', title: 'Region', maxLength: 100 },
    country: { type: 'string', title: 'Country', maxLength: 100 },
    description: { type: 'string', title: 'About', maxLength: 5000, 'x-widget': 'textarea' },
  },
};

const TEXT_FIELDS = ['name', 'domain', 'industry', 'size', 'description'] as const;
const ADDRESS_FIELDS = ['street', 'postal_code', 'city', 'region', 'country'] as const;

/** What the form shows for a company. */
function formValue(company: Company): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) value[field] = company[field] ?? '';
  for (const field of ADDRESS_FIELDS) value[field] = company.address[field] ?? '';
  return value;
}

/** The request body: for a new company what was filled in; for an edit what changed (an emptied field is cleared), the address whole when a part of it changed. */
function requestBody(values: Record<string, unknown>, before: Company | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const shown = before ? formValue(before) : {};
  const text = (field: string) => String(values[field] ?? '').trim();
  for (const field of TEXT_FIELDS) {
    if (!before) {
      if (text(field)) body[field] = text(field);
    } else if (text(field) !== String(shown[field])) body[field] = text(field) === '' ? (field === 'description' ? '' : null) : text(field);
  }
  const address = Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(field) || null]));
  const changed = before ? ADDRESS_FIELDS.some((field) => text(field) !== String(shown[field])) : ADDRESS_FIELDS.some((field) => text(field));
  if (changed) body.address = address;
  return body;
}

/** `/new` and `/companies/{id}/edit`: the company's form; a refusal shows on the field it names. */
export class CompaniesEdit extends LitElement {
  static override properties = { companyId: { attribute: 'company-id' }, company: { state: true }, error: { state: true } };
  declare companyId: string;
  declare company: Company | null;
  declare error: string | null;

  constructor() {
    super();
    this.companyId = '';
    this.company = null;
    this.error = null;
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-3); }
      .back { margin: 0 0 var(--wpk-space-3); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title(this.companyId ? 'Edit company' : 'New company');
    if (this.companyId) void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.company = (await kit().client.companies.getCompaniesByCompanyId({ params: { company_id: this.companyId } })).data as Company;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async save(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const { client } = kit();
    try {
      const body = requestBody(event.detail, this.company) as never;
      const saved = this.company
        ? ((await client.companies.putCompaniesByCompanyId({ params: { company_id: this.company.id }, body })).data as Company)
        : ((await client.companies.postCompanies({ body })).data as Company);
      toast(this.company ? `${saved.name} saved` : `${saved.name} added`, 'success');
      await navigate(`/companies/${saved.id}`, { replace: Boolean(this.company) });
    } catch (error) {
      // `address.city …` belongs on the City field: the form's fields are the address's parts.
      const message = isApiError(error) ? error.error : errorText(error);
      form.fail(message.startsWith('address.') ? new Error(message.slice('address.'.length)) : error);
    }
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/', 'Back to companies')}</p>`;
    if (this.companyId && !this.company) return html`<wa-spinner label="Loading the company"></wa-spinner>`;
    const company = this.company;
    return html`<p class="back">${company ? appLink(`/companies/${company.id}`, `← ${company.name}`) : appLink('/', '← All companies')}</p>
      <h1>${company ? `Edit ${company.name}` : 'New company'}</h1>
      <wpk-schema-form .schema=${FORM} .value=${company ? formValue(company) : {}} submit-label=${company ? 'Save company' : 'Add company'} @wpk-submit=${this.save}></wpk-schema-form>`;
  }
}

customElements.define('companies-edit', CompaniesEdit);
