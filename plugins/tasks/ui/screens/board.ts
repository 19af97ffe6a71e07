import { BoardMoves, LitElement, appHref, css, errorText, html, kit, liveConnection, navigate, nothing, repeat, sharedStyles } from '@wpk/ui';
import { boardTasks, PRIORITIES, type Board, type Task, type TaskFilters } from '../api.js';

/**
 * `/boards/{id}`: the board's lanes with their tasks. A task moves to another lane by drag and
 * drop, or from the keyboard: focus its card and press Alt+→ / Alt+← (or use its "Move to"
 * list). The board follows its live channel, so changes made elsewhere show at once.
 */
export class TasksBoard extends LitElement {
  static override properties = {
    boardId: { attribute: 'board-id' },
    board: { state: true },
    tasks: { state: true },
    filters: { state: true },
    error: { state: true },
  };
  declare boardId: string;
  declare board: Board | null;
  declare tasks: Task[];
  declare filters: TaskFilters;
  declare error: string | null;
  private readonly moves = new BoardMoves(this);
  private stopLive: (() => void) | null = null;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every read of the tasks and every change made here: a read answers only if nothing came after it. */
  private generation = 0;
  /** The generation of the newest read started. */
  private newestRead = 0;
  private filterTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.boardId = '';
    this.board = null;
    this.tasks = [];
    this.filters = {};
    this.error = null;
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-3); }
      .toolbar { display: flex; flex-wrap: wrap; gap: var(--wpk-space-3) var(--wpk-space-5); align-items: end; justify-content: space-between; margin-bottom: var(--wpk-space-4); }
      form.add, .filters { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; }
      form.add { flex: 1 1 22rem; max-width: 36rem; }
      form.add wa-input { flex: 1 1 12rem; min-width: 0; }
      .filters wa-input { min-width: 12rem; }
      .filters wa-checkbox { padding-bottom: var(--wpk-space-2); }
      .lanes { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(16rem, 1fr); gap: var(--wpk-space-3); overflow-x: auto; padding-bottom: var(--wpk-space-2); }
      @media (max-width: 600px) { .lanes { grid-auto-flow: row; grid-auto-columns: auto; } }
      .lane { background: var(--wpk-color-surface); border-radius: var(--wpk-radius-l); padding: var(--wpk-space-2); min-height: 8rem; border: 2px solid transparent; }
      .lane.drop { border-color: var(--wpk-color-brand); }
      .lane h2 { font-size: var(--wpk-font-size-m); margin: var(--wpk-space-1) var(--wpk-space-1) var(--wpk-space-2); display: flex; justify-content: space-between; }
      .lane ul { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--wpk-space-2); min-height: 3rem; }
      .card { background: var(--wpk-color-surface-raised); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-2) var(--wpk-space-3); box-shadow: var(--wpk-shadow-raised); cursor: grab; }
      .card:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
      .card.done .title { text-decoration: line-through; }
      .key { font-family: var(--wpk-font-mono); font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
      .title { display: block; margin: var(--wpk-space-1) 0; color: var(--wpk-color-text); }
      .meta { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
      select { font: inherit; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text); background: var(--wpk-color-bg); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-s); }
      label.move { display: inline-flex; gap: var(--wpk-space-1); align-items: center; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    // Any committed change of the board or its tasks, by anyone: read the tasks again (once per burst).
    this.stopLive = liveConnection().follow(`tasks/boards/${this.boardId}`, {
      event: () => {
        clearTimeout(this.reloadTimer);
        this.reloadTimer = setTimeout(() => void this.loadTasks(), 150);
      },
      subscribed: ({ reset }) => {
        if (reset) void this.loadTasks();
      },
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopLive?.();
    clearTimeout(this.reloadTimer);
  }

  private async load(): Promise<void> {
    try {
      this.board = (await kit().client.tasks.getBoardsByBoardId({ params: { board_id: this.boardId } })).data as Board;
      void kit().bridge.title(this.board.title);
      await this.loadTasks();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async loadTasks(): Promise<void> {
    try {
      // Two reads can overlap (a burst of live events, a filter), and a read that started before a
      // task was added or moved here would drop that change: only the newest read is shown, and a
      // read overtaken by a change made here is made again (it may hold others' changes too).
      const generation = ++this.generation;
      this.newestRead = generation;
      const tasks = await boardTasks(this.boardId, this.filters);
      if (generation === this.generation) this.tasks = tasks;
      else if (generation === this.newestRead) {
        clearTimeout(this.reloadTimer);
        this.reloadTimer = setTimeout(() => void this.loadTasks(), 150);
      }
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async add(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.querySelector('wa-input')!;
    const title = String(input.value ?? '').trim();
    if (!title) return;
    try {
      const task = (await kit().client.tasks.postTasks({ body: { title, board_id: this.boardId } })).data as Task;
      input.value = '';
      this.generation++;
      // A live reload may have shown the task already (the commit's event can overtake this answer).
      this.tasks = [...this.tasks.filter((held) => held.id !== task.id), task];
      this.moves.say(`${task.key} added to ${task.lane}`);
    } catch (error) {
      void kit().bridge.toast(errorText(error), 'danger');
    }
  }

  /** Moves a task to a lane (PATCH /tasks/{id} with its lane); the board shows it at once, and undoes it when refused. */
  private async move(task: Task, lane: string): Promise<void> {
    if (task.lane === lane) return;
    const before = this.tasks;
    this.generation++;
    this.tasks = this.tasks.map((held) => (held.id === task.id ? { ...held, lane } : held));
    try {
      await kit().client.tasks.patchTasksById({ params: { id: task.id }, body: { lane } });
      this.moves.say(`${task.key} moved to ${lane}`);
    } catch (error) {
      this.tasks = before;
      void kit().bridge.toast(errorText(error), 'danger');
    }
  }

  private key(event: KeyboardEvent, task: Task): void {
    const target = this.moves.step(event, this.board?.lanes ?? [], task.lane ?? '');
    if (!target) return;
    void this.move(task, target).then(() => this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-task="${task.id}"]`)?.focus()));
  }

  private filter(patch: TaskFilters): void {
    this.filters = { ...this.filters, ...patch };
    for (const [name, value] of Object.entries(this.filters)) if (value === '' || value === undefined) delete this.filters[name as keyof TaskFilters];
    clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => void this.loadTasks(), 200);
  }

  private lane(lane: string, index: number) {
    const tasks = this.tasks.filter((task) => task.lane === lane);
    const headingId = `lane-${index}`;
    const drop = this.moves.column(lane, (id) => {
      const task = this.tasks.find((held) => held.id === id);
      if (task) void this.move(task, lane);
    });
    return html`<section class=${this.moves.over === lane ? 'lane drop' : 'lane'} aria-labelledby=${headingId} @dragover=${drop.dragover} @dragleave=${drop.dragleave} @drop=${drop.drop}>
      <h2 id=${headingId}>${lane}<span class="muted">${tasks.length}</span></h2>
      <ul aria-labelledby=${headingId}>
        ${repeat(tasks, (task) => task.id, (task) => this.card(task))}
      </ul>
    </section>`;
  }

  private card(task: Task) {
    const lanes = this.board?.lanes ?? [];
    return html`<li>
      <article
        class=${task.completed ? 'card done' : 'card'}
        data-task=${task.id}
        tabindex="0"
        draggable="true"
        aria-label=${`${task.key} ${task.title}, in ${task.lane}. Alt and arrow keys move it to another lane.`}
        @dragstart=${this.moves.drag(task.id)}
        @keydown=${(event: KeyboardEvent) => this.key(event, task)}
      >
        <span class="key">${task.key}</span>
        <a class="title" href=${appHref(`/tasks/${task.id}`)} @click=${(event: Event) => {
          event.preventDefault();
          void navigate(`/tasks/${task.id}`);
        }}>${task.title}</a>
        <div class="meta">
          ${task.priority !== 'none' ? html`<span>Priority ${task.priority}</span>` : nothing}
          ${task.due_date ? html`<span>Due <wpk-date value=${task.due_date}></wpk-date></span>` : nothing}
          ${task.assignee_ids.length ? html`<span>${task.assignee_ids.length} assigned</span>` : nothing}
          ${this.moves.select('Move to', lanes.map((lane) => ({ id: lane, name: lane })), task.lane, (lane) => void this.move(task, lane))}
        </div>
      </article>
    </li>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    if (!this.board) return html`<wa-spinner label="Loading the board"></wa-spinner>`;
    return html`<h1>${this.board.title}</h1>
      <div class="toolbar">
      <form class="add" @submit=${this.add}>
        <wa-input label="New task" name="title" maxlength="200"></wa-input>
        <wa-button type="submit" variant="brand">Add task</wa-button>
      </form>
      <div class="filters" role="search" aria-label="Filter the board's tasks">
        <wa-input label="Search tasks" type="search" @input=${(event: Event) => this.filter({ q: String((event.target as HTMLInputElement).value ?? '').trim() })}></wa-input>
        <wa-select label="Priority" value="" @change=${(event: Event) => this.filter({ priority: ((event.target as HTMLSelectElement).value || undefined) as Task['priority'] | undefined })}>
          <wa-option value="">Any</wa-option>
          ${PRIORITIES.map((priority) => html`<wa-option value=${priority}>${priority}</wa-option>`)}
        </wa-select>
        <wa-checkbox @change=${(event: Event) => this.filter({ assignee_id: (event.target as HTMLInputElement).checked ? kit().member.id : undefined })}>Assigned to me</wa-checkbox>
        <wa-checkbox @change=${(event: Event) => this.filter({ status: (event.target as HTMLInputElement).checked ? 'open' : undefined })}>Open only</wa-checkbox>
      </div>
      </div>
      <div class="lanes">${this.board.lanes.map((lane, index) => this.lane(lane, index))}</div>
      ${this.moves.region()}`;
  }
}

customElements.define('tasks-board', TasksBoard);
