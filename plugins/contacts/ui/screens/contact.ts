import { LitElement, confirmAction, css, errorText, html, kit, navigate, nothing, sharedStyles, toast } from '@wpk/ui';
import { appLink, type Contact } from '../api.js';

/** `/contacts/{id}`: one contact with everything the book holds, and its edit and delete. */
export class ContactsContact extends LitElement {
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
      h1 { font-size: var(--wpk-font-size-xl); margin: 0; }
      .sub { margin: var(--wpk-space-1) 0 var(--wpk-space-4); }
      dl { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: var(--wpk-space-2) var(--wpk-space-4); margin: 0 0 var(--wpk-space-4); }
      @media (max-width: 480px) { dl { grid-template-columns: minmax(0, 1fr); } dd { margin-bottom: var(--wpk-space-2); } }
      dt { color: var(--wpk-color-text-muted); }
      dd { margin: 0; overflow-wrap: anywhere; }
      ul { list-style: none; margin: 0; padding: 0; }
      .kind { color: var(--wpk-color-text-muted); font-size: var(--wpk-font-size-s); }
      .notes { white-space: pre-wrap; }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); }
      .back { margin: 0 0 var(--wpk-space-3); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.contact = (await kit().client.contacts.getContactsByContactId({ params: { contact_id: this.contactId } })).data as Contact;
      void kit().bridge.title(this.contact.display_name);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async deleteContact(): Promise<void> {
    const contact = this.contact!;
    if (!(await confirmAction({ title: `Delete ${contact.display_name}?`, message: 'The contact leaves the address book for everyone in the workspace.', confirm_label: 'Delete contact', danger: true }))) return;
    try {
      await kit().client.contacts.deleteContactsByContactId({ params: { contact_id: contact.id } });
      toast(`${contact.display_name} deleted`, 'success');
      await navigate('/', { replace: true });
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/', 'Back to contacts')}</p>`;
    const contact = this.contact;
    if (!contact) return html`<wa-spinner label="Loading the contact"></wa-spinner>`;
    const role = [contact.job_title, contact.organization].filter(Boolean).join(' · ');
    const address = (entry: Contact['addresses'][number]) => [entry.street, [entry.postal_code, entry.city].filter(Boolean).join(' '), entry.region, entry.country].filter(Boolean).join(', ');
    return html`<p class="back">${appLink('/', '← All contacts')}</p>
      <h1>${contact.display_name}</h1>
      <p class="sub muted">${role || nothing}${role ? ' · ' : ''}added ${contact.source === 'import' ? 'by import' : contact.source === 'suggestion' ? 'from a suggestion' : 'by hand'} <wpk-date value=${contact.created_at} format="relative"></wpk-date></p>
      <dl>
        ${contact.emails.length
          ? html`<dt>Email</dt><dd><ul>${contact.emails.map((email) => html`<li><a href=${`mailto:${email.value}`}>${email.value}</a> <span class="kind">${email.type}</span></li>`)}</ul></dd>`
          : nothing}
        ${contact.phones.length
          ? html`<dt>Phone</dt><dd><ul>${contact.phones.map((phone) => html`<li><a href=${`tel:${phone.value.replace(/[^\d+]/g, '')}`}>${phone.value}</a> <span class="kind">${phone.type}</span></li>`)}</ul></dd>`
          : nothing}
        ${contact.company_mrn ? html`<dt>Company</dt><dd><wpk-mrn-chip mrn=${contact.company_mrn}></wpk-mrn-chip></dd>` : nothing}
        ${contact.addresses.length ? html`<dt>Address</dt><dd><ul>${contact.addresses.map((entry) => html`<li>${address(entry)} <span class="kind">${entry.type}</span></li>`)}</ul></dd>` : nothing}
        ${contact.birthday ? html`<dt>Birthday</dt><dd><wpk-date value=${contact.birthday}></wpk-date></dd>` : nothing}
        ${contact.tags.length ? html`<dt>Tags</dt><dd>${contact.tags.join(', ')}</dd>` : nothing}
        ${contact.notes ? html`<dt>Notes</dt><dd class="notes">${contact.notes}</dd>` : nothing}
      </dl>
      <div class="actions">
        <wa-button variant="brand" @click=${() => navigate(`/contacts/${contact.id}/edit`)}>Edit</wa-button>
        <wa-button variant="danger" appearance="outlined" @click=${() => this.deleteContact()}>Delete</wa-button>
      </div>`;
  }
}

customElements.define('contacts-contact', ContactsContact);
