import { LitElement, appHref, css, html, kit, navigate, screenStyles, type FormSchema, type TableColumn, type WpkSchemaForm } from '@wpk/ui';
import type { Board } from '../api.js';

/** The schema of a new board: the bounds are the API's (`POST /boards`). */
const NEW_BOARD: FormSchema = {
  required: ['title'],
  properties: {
    title: { type: 'string', title: 'Title', minLength: 1, maxLength: 200 },
    description: { type: 'string', title: 'Description', maxLength: 2000, 'x-widget': 'textarea' },
  },
};

/** `/`: the workspace's boards, and a form to make one. */
export class TasksBoards extends LitElement {
  static override styles = [
    screenStyles,
    css`
      .layout { display: grid; gap: var(--wpk-space-5); grid-template-columns: minmax(0, 2fr) minmax(16rem, 1fr); align-items: start; }
      @media (max-width: 720px) { .layout { grid-template-columns: minmax(0, 1fr); } }
      section { min-width: 0; }
      h2 { margin: 0 0 var(--wpk-space-3); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Boards');
  }

  private readonly columns: TableColumn<Board>[] = [
    {
      key: 'title',
      label: 'Board',
      render: (board) => html`<a href=${appHref(`/boards/${board.id}`)} @click=${(event: Event) => {
        event.preventDefault();
        void navigate(`/boards/${board.id}`);
      }}>${board.title}</a>`,
    },
    { key: 'description', label: 'Description' },
    { key: 'lanes', label: 'Lanes', render: (board) => board.lanes.join(' · ') },
  ];

  private async create(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      const board = await kit().client.tasks.postBoards({ body: event.detail as { title: string; description?: string } });
      void kit().bridge.toast(`Board ${board.data.title} created`, 'success');
      await navigate(`/boards/${board.data.id}`);
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    return html`<div class="layout">
      <section aria-labelledby="boards-heading">
        <h1 id="boards-heading">Boards</h1>
        <wpk-data-table caption="Your boards" .source=${'/boards'} .columns=${this.columns} filterable filter-label="Filter boards" empty="No board yet: make the first one."></wpk-data-table>
      </section>
      <section aria-labelledby="new-board">
        <h2 id="new-board">New board</h2>
        <wpk-schema-form .schema=${NEW_BOARD} submit-label="Create board" @wpk-submit=${this.create}></wpk-schema-form>
      </section>
    </div>`;
  }
}

customElements.define('tasks-boards', TasksBoards);
