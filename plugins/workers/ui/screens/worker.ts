import { RecordDetail, appLink, css, errorText, html, kit, nothing, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { CONFIRMATION_LABELS, CONTRACT_LABELS, DEPTH_STYLES, EMPLOYMENT_LABELS, NEXT_STEP, WORKERS, depthClass, directory, statusLabel, type Checklist, type Contract, type HistoryRow, type OrgNode, type Worker } from '../api.js';

/** `/workers/{id}`: one worker, their dated history, reports and contracts (with a form to add one), and the lifecycle's next step. */
export class WorkersWorker extends RecordDetail<Worker> {
  static override properties = { ...RecordDetail.properties, names: { state: true }, history: { state: true }, reports: { state: true }, contracts: { state: true }, checklists: { state: true } };
  static override styles = [...RecordDetail.styles, DEPTH_STYLES, css`ul.plain { list-style: none; padding: 0; margin: var(--wpk-space-1) 0; }`];
  /** Names of the workers and departments this page mentions, by id. */
  declare names: Map<string, string>;
  declare history: HistoryRow[];
  declare reports: OrgNode[];
  /** The worker's contracts; null when the caller may not see them (no `workers.contracts.read`). */
  declare contracts: Contract[] | null;
  /** The worker's on/offboarding checklists; null when the caller may not see them. */
  declare checklists: Checklist[] | null;
  protected readonly kind = WORKERS;

  constructor() {
    super();
    this.names = new Map();
    this.history = [];
    this.reports = [];
    this.contracts = null;
    this.checklists = null;
  }

  protected override loaded(worker: Worker): void {
    super.loaded(worker);
    void this.readAround(worker);
    void this.readContracts(worker);
    void this.readChecklists(worker);
  }

  private async readChecklists(worker: Worker): Promise<void> {
    try {
      this.checklists = (await kit().client.workers.getWorkersByWorkerIdChecklists({ params: { worker_id: worker.id }, query: { per_page: 100 } })).data as Checklist[];
    } catch {
      this.checklists = null;
    }
  }

  private async tick(worker: Worker, checklist: Checklist, itemId: string, done: boolean): Promise<void> {
    try {
      const updated = (await kit().client.workers.patchWorkersByWorkerIdChecklistsByChecklistIdItemsByItemId({ params: { worker_id: worker.id, checklist_id: checklist.id, item_id: itemId }, body: { done } })).data as Checklist;
      this.checklists = (this.checklists ?? []).map((row) => (row.id === updated.id ? updated : row));
      if (updated.completed_at && !checklist.completed_at) toast(`${updated.name} is complete`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
      await this.readChecklists(worker);
    }
  }

  private checklistsView(worker: Worker) {
    if (!this.checklists) return nothing;
    return html`<dt>Checklists</dt>
        <dd>${this.checklists.length
          ? this.checklists.map((checklist) => html`<section aria-label=${`Checklist ${checklist.name}`}>
              <strong>${checklist.name}</strong> <span class="kind">(${checklist.kind}${checklist.completed_at ? ', complete' : `, ${checklist.missing.length} missing`})</span>
              <ul class="plain">${checklist.items.map((item) => html`<li><wa-checkbox ?checked=${item.done} @change=${(event: Event) => this.tick(worker, checklist, item.id, (event.target as HTMLInputElement).checked)}>${item.label}</wa-checkbox>
                ${item.confirmed_by ? html`<span class="kind">${CONFIRMATION_LABELS[item.confirmed_by]}</span>` : nothing}</li>`)}</ul></section>`)
          : 'No checklist.'}</dd>`;
  }

  private async readContracts(worker: Worker): Promise<void> {
    try {
      this.contracts = (await kit().client.workers.getWorkersByWorkerIdContracts({ params: { worker_id: worker.id }, query: { per_page: 100 } })).data as Contract[];
    } catch {
      this.contracts = null;
    }
  }

  private contractSchema(): FormSchema {
    return {
      required: ['contract_type', 'starts_on', 'hours_per_week'],
      properties: {
        contract_type: { type: 'string', title: 'Contract type', enum: Object.keys(CONTRACT_LABELS), 'x-labels': CONTRACT_LABELS },
        starts_on: { type: 'string', format: 'date', title: 'Starts on' },
        ends_on: { type: 'string', format: 'date', title: 'Ends on' },
        hours_per_week: { type: 'number', title: 'Hours per week', minimum: 0.01, maximum: 168 },
      },
    };
  }

  private addContract(worker: Worker, event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        await kit().client.workers.postWorkersByWorkerIdContracts({ params: { worker_id: worker.id }, body: values as never });
        toast('Contract added', 'success');
      },
      () => this.readContracts(worker),
    );
  }

  private async readAround(worker: Worker): Promise<void> {
    const { client } = kit();
    const [{ workers, departments }, history, reports] = await Promise.all([
      directory(),
      client.workers.getWorkersByWorkerIdHistory({ params: { worker_id: worker.id }, query: { per_page: 100 } }),
      client.workers.getWorkersByWorkerIdReports({ params: { worker_id: worker.id }, query: { depth: 'all' } }),
    ]);
    this.names = new Map([...workers.map((row) => [row.id, row.name] as const), ...departments.map((row) => [row.id, row.name] as const)]);
    this.history = history.data as HistoryRow[];
    this.reports = (reports.data as { reports: OrgNode[] }).reports;
  }

  private async step(worker: Worker): Promise<void> {
    const next = NEXT_STEP[worker.status];
    try {
      this.record = (await kit().client.workers.patchWorkersByWorkerIdStatus({ params: { worker_id: worker.id }, body: { status: next.status as never } })).data as Worker;
      toast(`${worker.name} is ${this.record.status} now`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override deleteMessage(): string {
    return 'The worker and their history go for everyone in the workspace.';
  }

  protected override subline(worker: Worker) {
    return [worker.title, EMPLOYMENT_LABELS[worker.employment_type]].filter(Boolean).join(' · ');
  }

  private name(id: string | null | undefined): string {
    return id ? (this.names.get(id) ?? '…') : '';
  }

  protected fields(worker: Worker) {
    const next = NEXT_STEP[worker.status];
    return html`
        <dt>State</dt>
        <dd>${statusLabel(worker.status)} <wa-button size="small" @click=${() => this.step(worker)}>${next.label}</wa-button></dd>
        <dt>Work e-mail</dt><dd>${worker.work_email}</dd>
        ${worker.manager_id ? html`<dt>Manager</dt><dd>${appLink(`/workers/${worker.manager_id}`, this.name(worker.manager_id))}</dd>` : nothing}
        ${worker.department_id ? html`<dt>Department</dt><dd>${this.name(worker.department_id)}</dd>` : nothing}
        ${worker.start_date ? html`<dt>Start date</dt><dd>${worker.start_date}</dd>` : nothing}
        ${worker.location_mrn ? html`<dt>Location</dt><dd>${worker.location_name ?? html`<wpk-mrn-chip mrn=${worker.location_mrn}></wpk-mrn-chip>`}</dd>` : nothing}
        ${worker.salary_band ? html`<dt>Salary band</dt><dd>${worker.salary_band}</dd>` : nothing}
        <dt>Reports</dt>
        <dd>${this.reports.length
          ? html`<ul aria-label="Reports">${this.reports.map((node) => html`<li class=${depthClass(node.depth - 1)}>${appLink(`/workers/${node.id}`, node.name)} <span class="kind">${node.title}</span></li>`)}</ul>`
          : 'No one reports to them.'}</dd>
        ${this.contracts ? html`<dt>Contracts</dt>
        <dd>${this.contracts.length
          ? html`<ul aria-label="Contracts">${this.contracts.map((contract) => html`<li>${CONTRACT_LABELS[contract.contract_type]}: ${contract.starts_on} to ${contract.ends_on ?? 'open-ended'} · ${contract.hours_per_week} h a week</li>`)}</ul>`
          : 'No contract yet.'}
          <details><summary>Add a contract</summary>
          <wpk-schema-form .schema=${this.contractSchema()} .value=${{}} submit-label="Add contract" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.addContract(worker, event)}></wpk-schema-form></details></dd>` : nothing}
        ${this.checklistsView(worker)}
        <dt>History</dt>
        <dd><ul aria-label="History">${this.history.map((row) => html`<li>${row.effective_on}: ${row.title || 'no title'}${row.department_id ? ` · ${this.name(row.department_id)}` : ''}${row.manager_id ? ` · reports to ${this.name(row.manager_id)}` : ''}${row.in_effect ? html` <span class="kind">(current)</span>` : nothing}</li>`)}</ul></dd>`;
  }
}

customElements.define('workers-worker', WorkersWorker);
