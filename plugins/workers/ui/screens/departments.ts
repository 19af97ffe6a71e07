import { LitElement, choiceField, css, errorText, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { DEPTH_STYLES, depthClass, directory, type Department, type Worker } from '../api.js';

/** `/departments`: the departments as a tree (indented under their parent), and a form to add one. */
export class WorkersDepartments extends LitElement {
  static override properties = { departments: { state: true }, workers: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`ul { list-style: none; padding: 0; } li { padding: var(--wpk-space-1) 0; } .muted { color: var(--wpk-color-text-muted); }`, DEPTH_STYLES];
  declare departments: Department[];
  declare workers: Worker[];
  declare error: string | null;

  constructor() {
    super();
    this.departments = [];
    this.workers = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Departments');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      ({ departments: this.departments, workers: this.workers } = await directory());
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** The departments depth-first, each with its depth. */
  private tree(): Array<{ department: Department; depth: number }> {
    const children = new Map<string | null, Department[]>();
    const known = new Set(this.departments.map((department) => department.id));
    for (const department of this.departments) {
      const parent = department.parent_id && known.has(department.parent_id) ? department.parent_id : null;
      children.set(parent, [...(children.get(parent) ?? []), department]);
    }
    const out: Array<{ department: Department; depth: number }> = [];
    const visit = (parent: string | null, depth: number) => {
      for (const department of children.get(parent) ?? []) {
        out.push({ department, depth });
        visit(department.id, depth + 1);
      }
    };
    visit(null, 0);
    return out;
  }

  private schema(): FormSchema {
    return {
      required: ['name'],
      properties: {
        name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
        parent_id: choiceField('Inside', this.departments),
        head_id: choiceField('Head', this.workers),
      },
    };
  }

  private add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        const created = (await kit().client.workers.postWorkersDepartments({ body: values as never })).data as Department;
        toast(`${created.name} added`, 'success');
      },
      () => this.load(),
    );
  }

  protected override render() {
    const heads = new Map(this.workers.map((worker) => [worker.id, worker.name]));
    return html`<h1>Departments</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <ul aria-label="Departments">
        ${this.tree().map(({ department, depth }) => html`<li class=${depthClass(depth)}>${department.name}
          <span class="muted">${department.worker_count} worker(s)${department.head_id ? ` · head: ${heads.get(department.head_id) ?? '…'}` : ''}</span></li>`)}
      </ul>
      <h2>New department</h2>
      <wpk-schema-form .schema=${this.schema()} .value=${{}} submit-label="Add department" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>`;
  }
}

customElements.define('workers-departments', WorkersDepartments);
