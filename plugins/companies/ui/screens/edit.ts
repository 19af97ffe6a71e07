import { RecordEdit, errorText, textChanges, textValues, type FormSchema } from '@wpk/ui';
import { COMPANIES, SIZES, type Company } from '../api.js';

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
  return { ...textValues(company, TEXT_FIELDS), ...textValues(company.address, ADDRESS_FIELDS) };
}

/** The request body: for a new company what was filled in; for an edit what changed (an emptied field is cleared), the address whole when a part of it changed. */
function requestBody(values: Record<string, unknown>, before: Company | null): Record<string, unknown> {
  const shown = before ? formValue(before) : null;
  const body = textChanges(values, TEXT_FIELDS, shown, ['description']);
  if (Object.keys(textChanges(values, ADDRESS_FIELDS, shown)).length > 0) body.address = Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, String(values[field] ?? '').trim() || null]));
  return body;
}

/** `/new` and `/companies/{id}/edit`: the company's form; a refusal shows on the field it names. */
export class CompaniesEdit extends RecordEdit<Company> {
  protected readonly kind = COMPANIES;
  protected readonly schema = FORM;
  protected readonly formValue = formValue;
  protected readonly requestBody = requestBody;

  /** `address.city …` belongs on the City field: the form's fields are the address's parts. */
  protected override refusal(error: unknown): unknown {
    const message = errorText(error);
    return message.startsWith('address.') ? new Error(message.slice('address.'.length)) : error;
  }
}

customElements.define('companies-edit', CompaniesEdit);
