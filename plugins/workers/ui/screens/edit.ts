import { RecordEdit, textChanges, textValues, type FormSchema } from '@wpk/ui';
import { EMPLOYMENT_LABELS, WORKERS, directory, type Department, type Worker } from '../api.js';

const TEXT_FIELDS = ['name', 'work_email', 'title', 'department_id', 'manager_id', 'start_date', 'employment_type', 'location_mrn'] as const;

/** The form: the bounds are the API's (`POST /workers`, `PATCH /workers/{id}`); manager and department are chosen by name. */
function form(workers: Worker[], departments: Department[], editing: string | null): FormSchema {
  const managers = workers.filter((worker) => worker.id !== editing);
  return {
    required: ['name', 'work_email'],
    properties: {
      name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
      work_email: { type: 'string', title: 'Work e-mail', format: 'email', maxLength: 320 },
      title: { type: 'string', title: 'Title', maxLength: 200 },
      manager_id: { type: 'string', title: 'Manager', enum: managers.map((worker) => worker.id), 'x-labels': Object.fromEntries(managers.map((worker) => [worker.id, worker.name])) },
      department_id: { type: 'string', title: 'Department', enum: departments.map((department) => department.id), 'x-labels': Object.fromEntries(departments.map((department) => [department.id, department.name])) },
      start_date: { type: 'string', title: 'Start date', format: 'date' },
      employment_type: { type: 'string', title: 'Employment type', enum: Object.keys(EMPLOYMENT_LABELS), 'x-labels': EMPLOYMENT_LABELS },
      location_mrn: { type: 'string', title: 'Location', maxLength: 200, description: 'A location of the Settings app: mrn:settings:location:…' },
    },
  };
}

/** `/new` and `/workers/{id}/edit`: the worker's form; a refusal (a taken work e-mail, a manager cycle) shows on the field it names. */
export class WorkersEdit extends RecordEdit<Worker> {
  static override properties = { ...RecordEdit.properties, options: { state: true } };
  declare options: { workers: Worker[]; departments: Department[] };
  protected readonly kind = WORKERS;

  constructor() {
    super();
    this.options = { workers: [], departments: [] };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void directory().then((options) => (this.options = options));
  }

  protected get schema(): FormSchema {
    return form(this.options.workers, this.options.departments, this.recordId || null);
  }

  protected formValue(worker: Worker): Record<string, unknown> {
    return textValues(worker, TEXT_FIELDS);
  }

  protected requestBody(values: Record<string, unknown>, before: Worker | null): Record<string, unknown> {
    return textChanges(values, TEXT_FIELDS, before ? this.formValue(before) : null, ['title']);
  }
}

customElements.define('workers-edit', WorkersEdit);
