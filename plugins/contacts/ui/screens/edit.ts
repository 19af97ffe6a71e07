import { LitElement, css, errorText, html, kit, navigate, sharedStyles, toast, type FormSchema, type WpkSchemaForm } from '@wpk/ui';
import { appLink, splitList, type Contact } from '../api.js';

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
  const value: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) value[field] = contact[field] ?? '';
  value.emails = contact.emails.map((email) => email.value).join(', ');
  value.phones = contact.phones.map((phone) => phone.value).join(', ');
  value.tags = contact.tags.join(', ');
  return value;
}

/**
 * The request body of the form's values: for a new contact the fields filled in; for an edit only
 * what changed (an emptied field is cleared with null), so a name derived by the app stays derived.
 */
function requestBody(values: Record<string, unknown>, before: Contact | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const shown = before ? formValue(before) : {};
  for (const field of TEXT_FIELDS) {
    const now = String(values[field] ?? '').trim();
    if (!before) {
      if (now) body[field] = now;
    } else if (now !== String(shown[field] ?? '').trim()) body[field] = now === '' ? (field === 'notes' ? '' : null) : now;
  }
  const lists = {
    emails: (value: string) => ({ value, type: before?.emails.find((email) => email.value.toLowerCase() === value.toLowerCase())?.type ?? 'work' }),
    phones: (value: string) => ({ value, type: before?.phones.find((phone) => phone.value === value)?.type ?? 'mobile' }),
    tags: (value: string) => value,
  };
  for (const [field, entry] of Object.entries(lists)) {
    const items = splitList(values[field]);
    if (before ? items.join(', ') !== String(shown[field]) : items.length > 0) body[field] = items.map(entry as (value: string) => unknown);
  }
  return body;
}

/** `/new` and `/contacts/{id}/edit`: the contact's form; a refusal shows on the field it names. */
export class ContactsEdit extends LitElement {
  static override properties = { contactId: { attribute: 'contact-id' }, contact: { state: true }, error: { state: true } };
  declare contactId: string;
  declare contact: Contact | null;
  declare error: string | null;

  constructor() {
    super();
    this.contactId = '';
    this.contact = null;
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
    void kit().bridge.title(this.contactId ? 'Edit contact' : 'New contact');
    if (this.contactId) void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.contact = (await kit().client.contacts.getContactsByContactId({ params: { contact_id: this.contactId } })).data as Contact;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async save(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const { client } = kit();
    try {
      const body = requestBody(event.detail, this.contact) as never;
      const saved = this.contact
        ? ((await client.contacts.putContactsByContactId({ params: { contact_id: this.contact.id }, body })).data as Contact)
        : ((await client.contacts.postContacts({ body })).data as Contact);
      toast(this.contact ? `${saved.display_name} saved` : `${saved.display_name} added`, 'success');
      await navigate(`/contacts/${saved.id}`, { replace: Boolean(this.contact) });
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/', 'Back to contacts')}</p>`;
    if (this.contactId && !this.contact) return html`<wa-spinner label="Loading the contact"></wa-spinner>`;
    const contact = this.contact;
    return html`<p class="back">${contact ? appLink(`/contacts/${contact.id}`, `← ${contact.display_name}`) : appLink('/', '← All contacts')}</p>
      <h1>${contact ? `Edit ${contact.display_name}` : 'New contact'}</h1>
      <wpk-schema-form .schema=${FORM} .value=${contact ? formValue(contact) : {}} submit-label=${contact ? 'Save contact' : 'Add contact'} @wpk-submit=${this.save}></wpk-schema-form>`;
  }
}

customElements.define('contacts-edit', ContactsEdit);
