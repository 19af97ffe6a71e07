import { RecordEdit, textChanges, textValues, type FormSchema } from '@wpk/ui';
import { CONTACTS, splitList, type Contact } from '../api.js';

/** The form of a contact: the bounds are the API's (`POST /contacts`, `PUT /contacts/{id}`). Lists are typed comma-separated. */
const FORM: FormSchema = {
  properties: {
    given_name: { type: 'string', title: 'Given name', maxLength: 100 },
    family_name: { type: 'string', title: 'Family name', maxLength: 100 },
    display_name: { type: 'string', title: 'Display name', maxLength: 200, description: 'Left empty, it is made of the names (else the first email or phone).' },
    emails: { type: 'string', title: 'Emails', description: 'Several? Separate them with commas.' },
    phones: { type: 'string', title: 'Phones', description: 'Several? Separate them with commas.' },
    organization: { type: 'string', title: 'Organization', maxLength: 200 },
    job_title: { type: 'string', title: 'Job title', maxLength: 200 },
    birthday: { type: 'string', title: 'Birthday', format: 'date' },
    tags: { type: 'string', title: 'Tags', description: 'Separate them with commas.' },
    notes: { type: 'string', title: 'Notes', maxLength: 10000, 'x-widget': 'textarea' },
  },
};

const TEXT_FIELDS = ['given_name', 'family_name', 'display_name', 'organization', 'job_title', 'birthday', 'notes'] as const;

/** What the form shows for a contact. */
function formValue(contact: Contact): Record<string, unknown> {
  return {
    ...textValues(contact, TEXT_FIELDS),
    emails: contact.emails.map((email) => email.value).join(', '),
    phones: contact.phones.map((phone) => phone.value).join(', '),
    tags: contact.tags.join(', '),
  };
}

/**
 * The request body of the form's values: for a new contact the fields filled in; for an edit only
 * what changed (an emptied field is cleared with null), so a name derived by the app stays derived.
 */
function requestBody(values: Record<string, unknown>, before: Contact | null): Record<string, unknown> {
  const shown = before ? formValue(before) : null;
  const body = textChanges(values, TEXT_FIELDS, shown, ['notes']);
  const lists = {
    emails: (value: string) => ({ value, type: before?.emails.find((email) => email.value.toLowerCase() === value.toLowerCase())?.type ?? 'work' }),
    phones: (value: string) => ({ value, type: before?.phones.find((phone) => phone.value === value)?.type ?? 'mobile' }),
    tags: (value: string) => value,
  };
  for (const [field, entry] of Object.entries(lists)) {
    const items = splitList(values[field]);
    if (shown ? items.join(', ') !== String(shown[field]) : items.length > 0) body[field] = items.map(entry as (value: string) => unknown);
  }
  return body;
}

/** `/new` and `/contacts/{id}/edit`: the contact's form; a refusal shows on the field it names. */
export class ContactsEdit extends RecordEdit<Contact> {
  protected readonly kind = CONTACTS;
  protected readonly schema = FORM;
  protected readonly formValue = formValue;
  protected readonly requestBody = requestBody;
}

customElements.define('contacts-edit', ContactsEdit);
