import { ListScreen, appLink, html, nothing, routeQuery, type ListTable, type TableColumn } from '@wpk/ui';
import { type Contact } from '../api.js';

/** `/`: the address book, searchable (`q` over names, emails, phones, organization, title, tags), page by page. `?company_mrn=` narrows it to one company's people. */
export class ContactsList extends ListScreen<Contact> {
  protected readonly heading = 'Contacts';
  protected override readonly newLink = { path: '/new', label: 'New contact' };

  protected readonly columns: TableColumn<Contact>[] = [
    { key: 'display_name', label: 'Name', render: (contact) => appLink(`/contacts/${contact.id}`, contact.display_name) },
    { key: 'email', label: 'Email', render: (contact) => contact.emails[0]?.value ?? '' },
    { key: 'phone', label: 'Phone', render: (contact) => contact.phones[0]?.value ?? '' },
    { key: 'organization', label: 'Organization', render: (contact) => [contact.job_title, contact.company?.name ?? contact.organization].filter(Boolean).join(' · ') },
    { key: 'tags', label: 'Tags', render: (contact) => contact.tags.join(', ') },
  ];

  private company(): string | null {
    return routeQuery(this.path).get('company_mrn');
  }

  protected override intro() {
    const company = this.company();
    return company ? html`<p>People at <wpk-mrn-chip mrn=${company}></wpk-mrn-chip> · ${appLink('/', 'Show everyone')}</p>` : nothing;
  }

  protected table(): ListTable<Contact> {
    const company = this.company();
    return {
      caption: company ? 'Contacts at this company' : 'Everyone in the address book',
      source: company ? `/contacts?${new URLSearchParams({ company_mrn: company })}` : '/contacts',
      filter: 'Search contacts',
      empty: company ? 'No contact at this company yet.' : 'No contact yet: add one, or import a vCard file.',
    };
  }
}

customElements.define('contacts-list', ContactsList);
