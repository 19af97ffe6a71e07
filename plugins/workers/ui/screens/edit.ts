import { RecordEdit, choiceField, textChanges, textValues, type FormSchema } from '@wpk/ui';
import { EMPLOYMENT_LABELS, WORKERS, directory, type Department, type WorkLocation, type Worker } from '../api.js';

const TEXT_FIELDS = ['name', 'work_email', 'title', 'department_id', 'manager_id', 'start_date', 'employment_type', 'location_mrn'] as const;

/**
 * The form: the bounds are the API's (`POST /workers`, `PATCH /workers/{id}`); manager, department
 * and location are chosen by name (the location from Settings' locations, `GET /workers/locations`;
 * a worker's location deleted in Settings since stays listed under its last name).
 */
function form(workers: Worker[], departments: Department[], locations: WorkLocation[], editing: Worker | null): FormSchema {
  const managers = workers.filter((worker) => worker.id !== editing?.id);
  const places = locations.map((location) => [location.mrn, location.name]);
  if (editing?.location_mrn && !locations.some((location) => location.mrn === editing.location_mrn)) places.push([editing.location_mrn, editing.location_name ?? editing.location_mrn]);
  return {
    required: ['name', 'work_email'],
    properties: {
      name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
      work_email: { type: 'string', title: 'Work e-mail', format: 'email', maxLength: 320 },
      title: { type: 'string', title: 'Title', maxLength: 200 },
      manager_id: choiceField('Manager', managers),
      department_id: choiceField('Department', departments),
      start_date: { type: 'string', title: 'Start date', format: 'date' },
      employment_type: { type: 'string', title: 'Employment type', enum: Object.keys(EMPLOYMENT_LABELS), 'x-labels': EMPLOYMENT_LABELS },
      location_mrn: { type: 'string', title: 'Location', enum: places.map(([mrn]) => mrn), 'x-labels': Object.fromEntries(places), description: 'The locations of the Settings app' },
    },
  };
}

/** `/new` and `/workers/{id}/edit`: the worker's form; a refusal (a taken work e-mail, a manager cycle) shows on the field it names. */
export class WorkersEdit extends RecordEdit<Worker> {
  static override properties = { ...RecordEdit.properties, options: { state: true } };
  declare options: { workers: Worker[]; departments: Department[]; locations: WorkLocation[] };
  protected readonly kind = WORKERS;

  constructor() {
    super();
    this.options = { workers: [], departments: [], locations: [] };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void directory().then((options) => (this.options = options));
  }

  protected get schema(): FormSchema {
    return form(this.options.workers, this.options.departments, this.options.locations, this.record ?? null);
  }

  protected formValue(worker: Worker): Record<string, unknown> {
    return textValues(worker, TEXT_FIELDS);
  }

  protected requestBody(values: Record<string, unknown>, before: Worker | null): Record<string, unknown> {
    return textChanges(values, TEXT_FIELDS, before ? this.formValue(before) : null, ['title']);
  }
}

customElements.define('workers-edit', WorkersEdit);
