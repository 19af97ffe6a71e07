import { LitElement, appLink, css, html, kit, sharedStyles, type TableColumn } from '@wpk/ui';
import { place, type Company } from '../api.js';

/** `/`: the workspace's companies by name, searchable (`q` over name and domain), page by page. */
export class CompaniesList extends LitElement {
  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-3); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Companies');
  }

  private readonly columns: TableColumn<Company>[] = [
    { key: 'name', label: 'Company', render: (company) => appLink(`/companies/${company.id}`, company.name) },
    { key: 'domain', label: 'Domain', render: (company) => company.domain ?? '' },
    { key: 'industry', label: 'Industry', render: (company) => company.industry ?? '' },
    { key: 'size', label: 'Employees', render: (company) => company.size ?? '' },
    { key: 'place', label: 'Place', render: (company) => place(company) },
  ];

  protected override render() {
    return html`<h1>Companies</h1>
      <wpk-data-table caption="The workspace's companies" .source=${'/companies'} .columns=${this.columns} filterable filter-label="Search companies" empty="No company yet: add the first one with New company."></wpk-data-table>`;
  }
}

customElements.define('companies-list', CompaniesList);
