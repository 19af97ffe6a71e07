import { LitElement, appHref, css, errorText, html, kit, navigate, screenStyles, toast, type FormSchema, type TableColumn, type WpkDataTable, type WpkSchemaForm } from '@wpk/ui';
import { type Board, type Task } from '../api.js';

const NEW_IDEA: FormSchema = {
  required: ['title'],
  properties: {
    title: { type: 'string', title: 'Idea', minLength: 1, maxLength: 200 },
    due_date: { type: 'string', title: 'Due', format: 'date' },
  },
};

/** `/incubator`: the workspace's unplanned tasks; pull one onto a board when it is time. */
export class TasksIncubator extends LitElement {
  static override properties = { boards: { state: true }, target: { state: true } };
  declare boards: Board[];
  declare target: string;

  constructor() {
    super();
    this.boards = [];
    this.target = '';
  }

  static override styles = [
    screenStyles,
    css`
      .layout { display: grid; gap: var(--wpk-space-5); grid-template-columns: minmax(0, 2fr) minmax(16rem, 1fr); align-items: start; }
      @media (max-width: 720px) { .layout { grid-template-columns: minmax(0, 1fr); } }
      h2 { margin: 0 0 var(--wpk-space-3); }
      wa-select { max-width: 20rem; margin-bottom: var(--wpk-space-3); }
      .key { font-family: var(--wpk-font-mono); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Incubator');
    void kit()
      .client.tasks.getBoards({ query: { per_page: 100 } })
      .then((answer) => {
        this.boards = answer.data as Board[];
        this.target = this.boards[0]?.id ?? '';
      });
  }

  private readonly columns: TableColumn<Task>[] = [
    { key: 'key', label: 'Key', render: (task) => html`<span class="key">${task.key}</span>` },
    {
      key: 'title',
      label: 'Idea',
      render: (task) => html`<a href=${appHref(`/tasks/${task.id}`)} @click=${(event: Event) => {
        event.preventDefault();
        void navigate(`/tasks/${task.id}`);
      }}>${task.title}</a>`,
    },
    { key: 'due_date', label: 'Due', render: (task) => (task.due_date ? html`<wpk-date value=${task.due_date}></wpk-date>` : '') },
  ];

  private readonly actions = [{ label: 'Pull onto the board', run: (task: Task) => this.pull(task) }];

  private table(): WpkDataTable | null {
    return this.renderRoot.querySelector('wpk-data-table');
  }

  private async pull(task: Task): Promise<void> {
    if (!this.target) return toast('Make a board first', 'danger');
    try {
      await kit().client.tasks.postBoardsByBoardIdTasks({ params: { board_id: this.target }, body: { task_ids: [task.id] } });
      toast(`${task.key} pulled onto ${this.boards.find((board) => board.id === this.target)?.title ?? 'the board'}`, 'success');
      await this.table()?.reload();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async create(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      const task = await kit().client.tasks.postTasks({ body: event.detail as { title: string } });
      toast(`${(task.data as Task).key} is in the incubator`, 'success');
      form.value = {};
      form.submitting = false;
      await this.table()?.reload();
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    return html`<div class="layout">
      <section aria-labelledby="incubator-heading">
        <h1 id="incubator-heading">Incubator</h1>
        <wa-select label="Pull onto" value=${this.target} @change=${(event: Event) => (this.target = (event.target as HTMLSelectElement).value)}>
          ${this.boards.map((board) => html`<wa-option value=${board.id}>${board.title}</wa-option>`)}
        </wa-select>
        <wpk-data-table caption="Unplanned tasks" .source=${'/tasks?incubator=true'} .columns=${this.columns} .actions=${this.actions} filterable filter-label="Filter ideas" empty="The incubator is empty."></wpk-data-table>
      </section>
      <section aria-labelledby="new-idea">
        <h2 id="new-idea">New idea</h2>
        <wpk-schema-form .schema=${NEW_IDEA} submit-label="Add to the incubator" @wpk-submit=${this.create}></wpk-schema-form>
      </section>
    </div>`;
  }
}

customElements.define('tasks-incubator', TasksIncubator);
