import { LitElement, appLink, css, html, kit, nothing, routeQuery, sharedStyles, type TableColumn } from '@wpk/ui';
import { type Contact } from '../api.js';

/** `/`: the address book, searchable (`q` over names, emails, phones, organization, title, tags), page by page. `?company_mrn=` narrows it to one company's people. */
export class ContactsList extends LitElement {
  static override properties = { path: { attribute: false } };
  declare path: string;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      header { display: flex; flex-wrap: wrap; gap: var(--wpk-space-3); align-items: center; justify-content: space-between; margin-bottom: var(--wpk-space-3); }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0; }
      .new { display: inline-block; padding: var(--wpk-space-2) var(--wpk-space-3); border-radius: var(--wpk-radius-m); background: var(--wpk-color-brand-fill); }
      .new a { color: var(--wpk-color-on-brand-fill); text-decoration: none; font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Contacts');
  }

  protected override updated(changed: Map<string, unknown>): void {
    // Same screen, another company (or everyone): the table loads its new source.
    if (changed.has('path') && changed.get('path') !== undefined) void this.renderRoot.querySelector('wpk-data-table')?.reload();
  }

  private readonly columns: TableColumn<Contact>[] = [
    { key: 'display_name', label: 'Name', render: (contact) => appLink(`/contacts/${contact.id}`, contact.display_name) },
    { key: 'email', label: 'Email', render: (contact) => contact.emails[0]?.value ?? '' },
    { key: 'phone', label: 'Phone', render: (contact) => contact.phones[0]?.value ?? '' },
    { key: 'organization', label: 'Organization', render: (contact) => [contact.job_title, contact.company?.name ?? contact.organization].filter(Boolean).join(' · ') },
    { key: 'tags', label: 'Tags', render: (contact) => contact.tags.join(', ') },
  ];

  protected override render() {
    const company = routeQuery(this.path).get('company_mrn');
    const source = company ? `/contacts?${new URLSearchParams({ company_mrn: company })}` : '/contacts';
    return html`<header>
        <h1>Contacts</h1>
        <span class="new">${appLink('/new', 'New contact')}</span>
      </header>
      ${company ? html`<p>People at <wpk-mrn-chip mrn=${company}></wpk-mrn-chip> · ${appLink('/', 'Show everyone')}</p>` : nothing}
      <wpk-data-table caption=${company ? 'Contacts at this company' : 'Everyone in the address book'} .source=${source} .columns=${this.columns} filterable filter-label="Search contacts"
        empty=${company ? 'No contact at this company yet.' : 'No contact yet: add one, or import a vCard file.'}></wpk-data-table>`;
  }
}

customElements.define('contacts-list', ContactsList);
