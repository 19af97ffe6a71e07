import { LitElement, appLink, confirmAction, css, errorText, html, kit, navigate, nothing, repeat, screenStyles, toast } from '@wpk/ui';
import { CONTROL_STYLES } from '../styles.js';

export interface Board {
  id: string;
  name: string;
  description: string;
  updated_at: string;
  creator_mrn?: string | null;
}

/** `/`: the boards the member may see, most recently changed first; make one, open, rename or delete one. */
export class CanvasBoards extends LitElement {
  static override properties = { boards: { state: true }, error: { state: true }, renaming: { state: true } };
  static override styles = [
    screenStyles,
    CONTROL_STYLES,
    css`
      form { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-bottom: var(--wpk-space-4); }
      form label { display: grid; gap: var(--wpk-space-1); font-weight: var(--wpk-font-weight-bold); }
      ul { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-2); }
      li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; }
      li .name { flex: 1 1 12rem; }
      li form { margin: 0; }
    `,
  ];
  declare boards: Board[] | null;
  declare error: string | null;
  declare renaming: string | null;

  constructor() {
    super();
    this.boards = null;
    this.error = null;
    this.renaming = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Boards');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.boards = (await kit().client.request<{ data: Board[] }>('GET', '/canvas/boards', { query: { per_page: 100 } })).data;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const name = (new FormData(form).get('name') as string).trim();
    try {
      const board = (await kit().client.request<{ data: Board }>('POST', '/canvas/boards', { body: { name } })).data;
      this.error = null;
      await navigate(`/boards/${board.id}`);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async rename(event: SubmitEvent, board: Board): Promise<void> {
    event.preventDefault();
    const name = (new FormData(event.target as HTMLFormElement).get('name') as string).trim();
    try {
      await kit().client.request('PATCH', `/canvas/boards/${board.id}`, { body: { name } });
      this.renaming = null;
      this.error = null;
      await this.load();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async removeBoard(board: Board): Promise<void> {
    if (!(await confirmAction({ title: 'Delete the board?', message: `"${board.name}" and everything on it (objects, comments, votes, exports) will be gone for everyone.`, confirm_label: 'Delete', danger: true }))) return;
    try {
      await kit().client.request('DELETE', `/canvas/boards/${board.id}`);
      toast(`Deleted "${board.name}"`, 'success');
      await this.load();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private row(board: Board) {
    if (this.renaming === board.id)
      return html`<form aria-label=${`Rename ${board.name}`} @submit=${(event: SubmitEvent) => this.rename(event, board)}>
        <label>New name <input name="name" required maxlength="200" .value=${board.name} /></label>
        <button type="submit">Save</button>
        <button type="button" @click=${() => (this.renaming = null)}>Cancel</button>
      </form>`;
    return html`<span class="name">${appLink(`/boards/${board.id}`, html`<strong>${board.name}</strong>`)}
        <span class="muted"> · changed <wpk-date value=${board.updated_at} format="relative"></wpk-date></span></span>
      <button type="button" @click=${() => (this.renaming = board.id)}>Rename<span class="wpk-visually-hidden"> ${board.name}</span></button>
      <button type="button" class="danger" @click=${() => this.removeBoard(board)}>Delete<span class="wpk-visually-hidden"> ${board.name}</span></button>`;
  }

  protected override render() {
    return html`<h1>Boards</h1>
      <form aria-label="New board" @submit=${this.create}>
        <label>Name of a new board <input name="name" required maxlength="200" /></label>
        <button type="submit">Create board</button>
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${!this.boards
        ? html`<wa-spinner label="Loading the boards"></wa-spinner>`
        : this.boards.length
          ? html`<ul aria-label="Boards">${repeat(this.boards, (board) => board.id, (board) => html`<li>${this.row(board)}</li>`)}</ul>`
          : html`<p class="muted">No board yet: name one above.</p>`}`;
  }
}

customElements.define('canvas-boards', CanvasBoards);
