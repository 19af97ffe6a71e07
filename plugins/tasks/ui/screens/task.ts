import { LitElement, confirmAction, css, errorText, html, kit, navigate, nothing, screenStyles, toast, type PickedMember, type SearchHit, type WpkFilePicker } from '@wpk/ui';
import { PRIORITIES, type Board, type Comment, type Deliverable, type Task } from '../api.js';

/** The workspace's origin (the frame is served on it, though it runs with an opaque origin). */
const workspaceOrigin = (): string => new URL(location.href).origin;

/** `/tasks/{id}`: one task: its fields, its assignees, its files and deliverables, and its comments. */
export class TasksTask extends LitElement {
  static override properties = {
    taskId: { attribute: 'task-id' },
    task: { state: true },
    board: { state: true },
    comments: { state: true },
    deliverables: { state: true },
    people: { state: true },
    error: { state: true },
    commentError: { state: true },
  };
  declare taskId: string;
  declare task: Task | null;
  declare board: Board | null;
  declare comments: Comment[];
  declare deliverables: Deliverable[];
  declare people: Map<string, PickedMember>;
  declare error: string | null;
  declare commentError: string | null;

  constructor() {
    super();
    this.taskId = '';
    this.task = null;
    this.board = null;
    this.comments = [];
    this.deliverables = [];
    this.people = new Map();
    this.error = null;
    this.commentError = null;
  }

  static override styles = [
    screenStyles,
    css`
      :host { max-width: 60rem; }
      .key { font-family: var(--wpk-font-mono); color: var(--wpk-color-text-muted); margin-right: var(--wpk-space-2); }
      .fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: var(--wpk-space-3); align-items: end; }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin-top: var(--wpk-space-3); }
      ul.deliverables { margin: 0 0 var(--wpk-space-2); padding-left: var(--wpk-space-4); display: grid; gap: var(--wpk-space-1); }
      ul.people { list-style: none; padding: 0; margin: 0 0 var(--wpk-space-2); display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); }
      ul.people li { display: inline-flex; gap: var(--wpk-space-1); align-items: center; padding: 0 var(--wpk-space-2); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-pill); }
      ol.comments { list-style: none; padding: 0; margin: 0; display: grid; gap: var(--wpk-space-3); }
      ol.comments li { border-left: 3px solid var(--wpk-color-border); padding-left: var(--wpk-space-3); }
      .byline { font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
      .body { white-space: pre-wrap; margin: var(--wpk-space-1) 0 0; }
      form.comment { display: grid; gap: var(--wpk-space-2); margin-top: var(--wpk-space-3); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    const { client } = kit();
    try {
      this.task = (await client.tasks.getTasksById({ params: { id: this.taskId } })).data as Task;
      void kit().bridge.title(`${this.task.key} ${this.task.title}`);
      this.board = this.task.board_id ? ((await client.tasks.getBoardsByBoardId({ params: { board_id: this.task.board_id } })).data as Board) : null;
      this.comments = (await client.tasks.getTasksByIdComments({ params: { id: this.taskId }, query: { per_page: 100 } })).data as Comment[];
      this.deliverables = (await client.tasks.getTasksByIdDeliverables({ params: { id: this.taskId }, query: { per_page: 100 } })).data as Deliverable[];
      await this.learn([...this.task.assignee_ids, ...this.comments.map((comment) => comment.author_id)]);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** Names of members by id, from the shell (the member directory is not the app's to read). */
  private async learn(ids: string[]): Promise<void> {
    const unknown = [...new Set(ids)].filter((id) => !this.people.has(id));
    if (unknown.length === 0) return;
    const found = await kit().bridge.members(unknown);
    this.people = new Map([...this.people, ...found.map((member) => [member.id, member] as const)]);
  }

  private nameOf(id: string): string {
    return this.people.get(id)?.name ?? 'A former member';
  }

  private async patch(body: Partial<Pick<Task, 'lane' | 'priority' | 'due_date' | 'description' | 'title'>>): Promise<void> {
    try {
      this.task = (await kit().client.tasks.patchTasksById({ params: { id: this.taskId }, body: body as never })).data as Task;
      toast('Saved', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
      await this.load();
    }
  }

  private async assign(): Promise<void> {
    const chosen = await kit().bridge.pickMembers({ title: 'Assign to', multiple: true });
    for (const member of chosen) {
      if (this.task?.assignee_ids.includes(member.id)) continue;
      try {
        await kit().client.tasks.postTasksByIdAssignees({ params: { id: this.taskId }, body: { member_id: member.id } });
      } catch (error) {
        toast(errorText(error), 'danger');
      }
    }
    this.people = new Map([...this.people, ...chosen.map((member) => [member.id, member] as const)]);
    await this.load();
  }

  private async unassign(memberId: string): Promise<void> {
    try {
      await kit().client.tasks.deleteTasksByIdAssigneesByMemberId({ params: { id: this.taskId, member_id: memberId } });
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async comment(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const field = form.querySelector('wa-textarea')!;
    try {
      const comment = (await kit().client.tasks.postTasksByIdComments({ params: { id: this.taskId }, body: { body: String(field.value ?? '') } })).data as Comment;
      field.value = '';
      this.commentError = null;
      this.comments = [...this.comments, comment];
      await this.learn([comment.author_id]);
    } catch (error) {
      this.commentError = errorText(error);
    }
  }

  private async complete(): Promise<void> {
    const { client } = kit();
    try {
      if (this.task?.completed) await client.tasks.deleteTasksByIdCompletion({ params: { id: this.taskId } });
      else await client.tasks.postTasksByIdCompletion({ params: { id: this.taskId } });
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Files chosen in the shell's file picker go on the task as deliverables linking to them in Files. */
  private async attach(event: Event): Promise<void> {
    const picker = event.target as WpkFilePicker;
    const chosen: SearchHit[] = picker.value;
    picker.value = [];
    const { client } = kit();
    const added: Deliverable[] = [];
    const already: string[] = [];
    try {
      for (const file of chosen) {
        const url = `${workspaceOrigin()}/app/files${file.url}`;
        if (this.deliverables.some((deliverable) => deliverable.url === url)) {
          already.push(file.title);
          continue;
        }
        added.push((await client.tasks.postTasksByIdDeliverables({ params: { id: this.taskId }, body: { title: file.title.slice(0, 200), url } })).data as Deliverable);
      }
      if (added.length) toast(added.length === 1 ? `${added[0].title} attached` : `${added.length} files attached`, 'success');
      else if (already.length) toast(`${already.join(', ')} ${already.length === 1 ? 'is' : 'are'} already attached`);
    } catch (error) {
      toast(errorText(error), 'danger');
    } finally {
      this.deliverables = [...this.deliverables, ...added];
    }
  }

  /** A deliverable's link: a page of the workspace (a file in Files) opens in the shell; any other address in a new tab. */
  private deliverableLink(deliverable: Deliverable) {
    if (!deliverable.url) return html`${deliverable.title}`;
    const url = new URL(deliverable.url);
    if (url.origin === workspaceOrigin() && url.pathname.startsWith('/app/')) {
      return html`<a href=${deliverable.url} @click=${(event: MouseEvent) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        void kit().bridge.open(`${url.pathname}${url.search}`);
      }}>${deliverable.title}</a>`;
    }
    return html`<a href=${deliverable.url} target="_blank" rel="noopener noreferrer">${deliverable.title}</a>`;
  }

  private async deleteTask(): Promise<void> {
    const task = this.task!;
    if (!(await confirmAction({ title: `Delete ${task.key}?`, message: `"${task.title}" and its comments will be gone for good.`, confirm_label: 'Delete task', danger: true }))) return;
    try {
      await kit().client.tasks.deleteTasksById({ params: { id: task.id } });
      toast(`${task.key} deleted`, 'success');
      await navigate(task.board_id ? `/boards/${task.board_id}` : '/incubator', { replace: true });
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const task = this.task;
    if (!task) return html`<wa-spinner label="Loading the task"></wa-spinner>`;
    return html`<h1><span class="key">${task.key}</span>${task.title}</h1>
      <p class="muted">${this.board ? html`On ${this.board.title}` : 'In the incubator'} · created <wpk-date value=${String(task.created_at)} format="relative"></wpk-date>${task.completed ? ' · completed' : ''}</p>
      <div class="fields">
        ${this.board
          ? html`<wa-select label="Lane" value=${task.lane ?? ''} @change=${(event: Event) => this.patch({ lane: (event.target as HTMLSelectElement).value })}>
              ${this.board.lanes.map((lane) => html`<wa-option value=${lane}>${lane}</wa-option>`)}
            </wa-select>`
          : nothing}
        <wa-select label="Priority" value=${task.priority} @change=${(event: Event) => this.patch({ priority: (event.target as HTMLSelectElement).value as Task['priority'] })}>
          ${PRIORITIES.map((priority) => html`<wa-option value=${priority}>${priority}</wa-option>`)}
        </wa-select>
        <wa-input label="Due" type="date" .value=${task.due_date ?? ''} @change=${(event: Event) => this.patch({ due_date: (event.target as HTMLInputElement).value || null })}></wa-input>
      </div>
      <wa-textarea label="Description" .value=${task.description} maxlength="10000" @change=${(event: Event) => this.patch({ description: (event.target as HTMLTextAreaElement).value })}></wa-textarea>
      <div class="actions">
        <wa-button @click=${() => this.complete()}>${task.completed ? 'Reopen' : 'Complete'}</wa-button>
        <wa-button variant="danger" appearance="outlined" @click=${() => this.deleteTask()}>Delete</wa-button>
      </div>

      <h2>Assignees</h2>
      ${task.assignee_ids.length
        ? html`<ul class="people">
            ${task.assignee_ids.map((id) => html`<li>${this.nameOf(id)}<wa-button size="small" appearance="plain" @click=${() => this.unassign(id)}>Remove<span class="wpk-visually-hidden"> ${this.nameOf(id)}</span></wa-button></li>`)}
          </ul>`
        : html`<p class="muted">Nobody yet.</p>`}
      <wa-button size="small" @click=${() => this.assign()}>Assign someone</wa-button>

      <h2>Files and deliverables</h2>
      ${this.deliverables.length
        ? html`<ul class="deliverables">
            ${this.deliverables.map((deliverable) => html`<li>${this.deliverableLink(deliverable)}${deliverable.delivered ? html` <span class="muted">· delivered</span>` : nothing}</li>`)}
          </ul>`
        : html`<p class="muted">Nothing attached yet.</p>`}
      <wpk-file-picker label="Attach from Files" multiple @change=${this.attach}></wpk-file-picker>

      <h2>Comments</h2>
      ${this.comments.length === 0 ? html`<p class="muted">No comment yet.</p>` : nothing}
      <ol class="comments">
        ${this.comments.map(
          (comment) => html`<li>
            <span class="byline">${this.nameOf(comment.author_id)} · <wpk-date value=${String(comment.created_at)} format="datetime"></wpk-date></span>
            <p class="body">${comment.body}</p>
          </li>`,
        )}
      </ol>
      <form class="comment" @submit=${this.comment}>
        <wa-textarea label="Add a comment" name="body" maxlength="5000" rows="3">${this.commentError ? html`<span slot="hint" class="error">${this.commentError}</span>` : nothing}</wa-textarea>
        <div><wa-button type="submit" variant="brand">Comment</wa-button></div>
      </form>`;
  }
}

customElements.define('tasks-task', TasksTask);
