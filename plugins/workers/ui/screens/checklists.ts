import { LitElement, choiceField, css, errorText, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { CONFIRMATION_LABELS, directory, type ChecklistTemplate, type Department } from '../api.js';

/** The self-ticking items a template may include, by the form's field, with the kind of checklist each belongs to. */
const SELF_TICKING = [
  { field: 'with_account', confirmed_by: 'member_linked', label: 'The worker has an account', kind: 'onboarding' },
  { field: 'with_files', confirmed_by: 'files_transferred', label: 'Files handed over', kind: 'offboarding' },
  { field: 'with_access', confirmed_by: 'access_removed', label: 'Access removed', kind: 'offboarding' },
  { field: 'with_time_off', confirmed_by: 'time_off_cancelled', label: 'Future time off cancelled', kind: 'offboarding' },
  { field: 'with_tasks', confirmed_by: 'tasks_unassigned', label: 'Tasks unassigned', kind: 'offboarding' },
] as const;

/** `/checklists`: the on/offboarding checklist templates, and a form to add one. */
export class WorkersChecklists extends LitElement {
  static override properties = { templates: { state: true }, departments: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`ul { padding-inline-start: 1.25rem; } .muted { color: var(--wpk-color-text-muted); }`];
  declare templates: ChecklistTemplate[];
  declare departments: Department[];
  declare error: string | null;

  constructor() {
    super();
    this.templates = [];
    this.departments = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Checklists');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const { client } = kit();
      const [templates, { departments }] = await Promise.all([client.workers.getWorkersChecklistTemplates({ query: { per_page: 100 } }), directory()]);
      this.templates = templates.data as ChecklistTemplate[];
      this.departments = departments;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private schema(): FormSchema {
    return {
      required: ['kind', 'name', 'items'],
      properties: {
        kind: { type: 'string', title: 'When', enum: ['onboarding', 'offboarding'], 'x-labels': { onboarding: 'Onboarding (hire, rehire)', offboarding: 'Offboarding' } },
        name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
        department_id: choiceField('For the department', this.departments),
        items: { type: 'string', title: 'Items, one per line', 'x-widget': 'textarea', minLength: 1, maxLength: 10_000 },
        ...Object.fromEntries(SELF_TICKING.map((item) => [item.field, { type: 'boolean', title: `${item.label} (${item.kind}; ${CONFIRMATION_LABELS[item.confirmed_by]})` }])),
      },
    };
  }

  private add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        const { kind, name, department_id: departmentId, items } = values as { kind: string; name: string; department_id?: string; items: string };
        const lines = items.split('\n').map((line) => line.trim()).filter(Boolean).map((label) => ({ label }));
        const ticking = SELF_TICKING.filter((item) => values[item.field] === true).map((item) => ({ label: item.label, confirmed_by: item.confirmed_by }));
        const body = { kind, name, items: [...lines, ...ticking], ...(departmentId ? { department_id: departmentId } : {}) };
        const created = (await kit().client.workers.postWorkersChecklistTemplates({ body: body as never })).data as ChecklistTemplate;
        toast(`${created.name} added`, 'success');
      },
      () => this.load(),
    );
  }

  protected override render() {
    const names = new Map(this.departments.map((department) => [department.id, department.name]));
    return html`<h1>Checklists</h1>
      <p class="muted">A worker gets a checklist from each template of its kind for everyone or for their department: onboarding ones when they are added or rehired, offboarding ones when their offboarding starts.</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${this.templates.map((template) => html`<section aria-label=${`Template ${template.name}`}>
        <h2>${template.name}</h2>
        <p class="muted">${template.kind === 'onboarding' ? 'Onboarding' : 'Offboarding'} · ${template.department_id ? (names.get(template.department_id) ?? '…') : 'every department'}</p>
        <ul>${template.items.map((item) => html`<li>${item.label}${item.confirmed_by ? html` <span class="muted">(${CONFIRMATION_LABELS[item.confirmed_by]})</span>` : ''}</li>`)}</ul>
      </section>`)}
      <h2>New template</h2>
      <wpk-schema-form .schema=${this.schema()} .value=${{}} submit-label="Add template" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>`;
  }
}

customElements.define('workers-checklists', WorkersChecklists);
