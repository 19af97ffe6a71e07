import { ListScreen, appLink, type ListTable, type TableColumn } from '@wpk/ui';
import { place, type Company } from '../api.js';

/** `/`: the workspace's companies by name, searchable (`q` over name and domain), page by page. */
export class CompaniesList extends ListScreen<Company> {
  protected readonly heading = 'Companies';

  protected readonly columns: TableColumn<Company>[] = [
    { key: 'name', label: 'Company', render: (company) => appLink(`/companies/${company.id}`, company.name) },
    { key: 'domain', label: 'Domain', render: (company) => company.domain ?? '' },
    { key: 'industry', label: 'Industry', render: (company) => company.industry ?? '' },
    { key: 'size', label: 'Employees', render: (company) => company.size ?? '' },
    { key: 'place', label: 'Place', render: (company) => place(company) },
  ];

  protected table(): ListTable<Company> {
    return { caption: "The workspace's companies", source: '/companies', filter: 'Search companies', empty: 'No company yet: add the first one with New company.' };
  }
}

customElements.define('companies-list', CompaniesList);
