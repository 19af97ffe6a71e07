import { RecordDetail, html, nothing } from '@wpk/ui';
import { CONTACTS, type Contact } from '../api.js';

/** `/contacts/{id}`: one contact with everything the book holds, and its edit and delete. */
export class ContactsContact extends RecordDetail<Contact> {
  protected readonly kind = CONTACTS;

  protected override deleteMessage(): string {
    return 'The contact leaves the address book for everyone in the workspace.';
  }

  protected override subline(contact: Contact) {
    const role = [contact.job_title, contact.organization].filter(Boolean).join(' · ');
    return html`${role || nothing}${role ? ' · ' : ''}added ${contact.source === 'import' ? 'by import' : contact.source === 'suggestion' ? 'from a suggestion' : 'by hand'} <wpk-date value=${contact.created_at} format="relative"></wpk-date>`;
  }

  protected fields(contact: Contact) {
    const address = (entry: Contact['addresses'][number]) => [entry.street, [entry.postal_code, entry.city].filter(Boolean).join(' '), entry.region, entry.country].filter(Boolean).join(', ');
    return html`
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
        ${contact.notes ? html`<dt>Notes</dt><dd class="long">${contact.notes}</dd>` : nothing}`;
  }
}

customElements.define('contacts-contact', ContactsContact);
