import { ListScreen, appLink, html, navigate, routeQuery, type ListTable, type TableColumn } from '@wpk/ui';
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
    const status = routeQuery(this.path).get('status') ?? '';
    return html`<div class="filter">
      <label for="status">State</label>
      <select id="status" .value=${status} @change=${(event: Event) => {
        const value = (event.target as HTMLSelectElement).value;
        void navigate(value ? `/?status=${value}` : '/', { replace: true });
      }}>
        <option value="">Every state</option>
        ${STATUSES.map((state) => html`<option value=${state} ?selected=${state === status}>${statusLabel(state)}</option>`)}
      </select>
    </div>`;
  }

  protected table(): ListTable<Worker> {
    const status = routeQuery(this.path).get('status');
    return {
      caption: "The workspace's workers",
      source: status ? `/workers?status=${encodeURIComponent(status)}` : '/workers',
      filter: 'Search workers',
      empty: 'No worker yet: add the first one with New worker.',
    };
  }
}

customElements.define('workers-list', WorkersList);
