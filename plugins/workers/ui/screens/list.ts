import { ListScreen, appLink, html, navigate, nothing, routeQuery, type ListTable, type TableColumn } from '@wpk/ui';
import { EMPLOYMENT_LABELS, STATUSES, statusLabel, type Worker } from '../api.js';

/** `/`: the directory by name, searchable (`q` over name, work e-mail and title), filtered by state. */
export class WorkersList extends ListScreen<Worker> {
  protected readonly heading = 'Directory';
  protected override readonly newLink = { path: '/new', label: 'New worker' };

  protected readonly columns: TableColumn<Worker>[] = [
    { key: 'name', label: 'Name', render: (worker) => appLink(`/workers/${worker.id}`, worker.name) },
    { key: 'title', label: 'Title', render: (worker) => worker.title },
    { key: 'work_email', label: 'Work e-mail', render: (worker) => worker.work_email },
    { key: 'employment_type', label: 'Type', render: (worker) => EMPLOYMENT_LABELS[worker.employment_type] ?? worker.employment_type },
    { key: 'status', label: 'State', render: (worker) => statusLabel(worker.status) },
  ];

  protected override intro() {
    const query = routeQuery(this.path);
    const status = query.get('status') ?? '';
    const department = query.get('department_id');
    return html`${department ? html`<p>Workers of <wpk-mrn-chip mrn=${`mrn:workers:department:${department}`}></wpk-mrn-chip> · ${appLink('/', 'Show everyone')}</p>` : nothing}<div class="filter">
      <label for="status">State</label>
      <select id="status" .value=${status} @change=${(event: Event) => {
        const value = (event.target as HTMLSelectElement).value;
        const next = new URLSearchParams({ ...(department ? { department_id: department } : {}), ...(value ? { status: value } : {}) }).toString();
        void navigate(next ? `/?${next}` : '/', { replace: true });
      }}>
        <option value="">Every state</option>
        ${STATUSES.map((state) => html`<option value=${state} ?selected=${state === status}>${statusLabel(state)}</option>`)}
      </select>
    </div>`;
  }

  protected table(): ListTable<Worker> {
    const query = routeQuery(this.path);
    const filters = new URLSearchParams();
    for (const key of ['department_id', 'status']) if (query.get(key)) filters.set(key, query.get(key)!);
    return {
      caption: query.get('department_id') ? "The department's workers" : "The workspace's workers",
      source: filters.size ? `/workers?${filters}` : '/workers',
      filter: 'Search workers',
      empty: 'No worker yet: add the first one with New worker.',
    };
  }
}

customElements.define('workers-list', WorkersList);
