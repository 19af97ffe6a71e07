import { LitElement, css, errorText, html, kit, nothing, repeat, screenStyles } from '@wpk/ui';
import { CONTROL_STYLES } from '../styles.js';

const TARGETS = [
  ['png', 'PNG'],
  ['svg', 'SVG'],
  ['pdf', 'PDF'],
] as const;

interface Comment {
  id: string;
  object_id: string;
  body: string;
  author_id: string;
  resolved: boolean;
  created_at: string;
}

const EXTRA_STYLES = css`
  section { margin-top: var(--wpk-space-3); }
  h2 { font-size: var(--wpk-font-size-l); margin: 0 0 var(--wpk-space-2); }
  ul { list-style: none; padding: 0; margin: 0 0 var(--wpk-space-2); display: grid; gap: var(--wpk-space-2); }
  li { border-inline-start: 3px solid var(--wpk-color-border-strong); padding-inline-start: var(--wpk-space-2); }
  li.resolved { opacity: 0.75; }
  form { display: grid; gap: var(--wpk-space-1); }
  textarea { width: 100%; box-sizing: border-box; }
  form button { justify-self: start; }
`;

/** The comments on one object of the board: read, add, resolve or reopen (`/canvas/boards/{id}/comments`). */
export class CanvasComments extends LitElement {
  static override properties = { boardId: { attribute: 'board-id' }, objectId: { attribute: 'object-id' }, comments: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CONTROL_STYLES, EXTRA_STYLES];
  declare boardId: string;
  declare objectId: string;
  declare comments: Comment[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.comments = null;
    this.error = null;
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('objectId') || changed.has('boardId')) void this.load();
  }

  private async load(): Promise<void> {
    this.comments = null;
    try {
      this.comments = (await kit().client.request<{ data: Comment[] }>('GET', `/canvas/boards/${this.boardId}/comments`, { query: { object_id: this.objectId, per_page: 100 } })).data;
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async send(path: string, method: 'POST' | 'PATCH', body: Record<string, unknown>): Promise<boolean> {
    try {
      await kit().client.request(method, `/canvas/boards/${this.boardId}/comments${path}`, { body });
      await this.load();
      return true;
    } catch (error) {
      this.error = errorText(error);
      return false;
    }
  }

  private async add(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (await this.send('', 'POST', { object_id: this.objectId, body: String(new FormData(form).get('body') ?? '') })) form.reset();
  }

  protected override render() {
    return html`<section aria-label="Comments">
      <h2>Comments</h2>
      ${this.comments === null
        ? html`<wa-spinner label="Loading the comments"></wa-spinner>`
        : this.comments.length
          ? html`<ul aria-label="Comments on the object">
              ${repeat(this.comments, (comment) => comment.id, (comment) => html`<li class=${comment.resolved ? 'resolved' : ''}>
                <div>${comment.body}</div>
                <div class="muted hint"><wpk-date value=${comment.created_at} format="relative"></wpk-date>${comment.resolved ? ' · resolved' : ''}
                  <button type="button" @click=${() => this.send(`/${comment.id}`, 'PATCH', { resolved: !comment.resolved })}>${comment.resolved ? 'Reopen' : 'Resolve'}</button></div>
              </li>`)}
            </ul>`
          : html`<p class="muted">No comment yet.</p>`}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <form aria-label="Add a comment" @submit=${this.add}>
        <label for="comment-body">New comment</label>
        <textarea id="comment-body" name="body" required maxlength="4000"></textarea>
        <button type="submit">Comment</button>
      </form>
    </section>`;
  }
}

customElements.define('canvas-comments', CanvasComments);

interface Tally {
  object_id: string;
  votes: number;
}

interface VoteSession {
  id: string;
  title: string;
  status: 'open' | 'closed';
  votes_per_member: number;
  votes_left: number;
  my_votes: Tally[];
  results: Tally[] | null;
  total_votes: number | null;
  voter_count: number | null;
}

/** Under the board: its voting session (start, vote for the selected object, close, results) and its exports (PNG, SVG, PDF with a download link). */
export class CanvasBoardExtras extends LitElement {
  static override properties = {
    boardId: { attribute: 'board-id' },
    selectedId: { attribute: false },
    nameOf: { attribute: false },
    session: { state: true },
    links: { state: true },
    busy: { state: true },
    error: { state: true },
  };
  static override styles = [screenStyles, CONTROL_STYLES, EXTRA_STYLES, css`ol { padding-inline-start: var(--wpk-space-4); } .row { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; } .row label { display: grid; gap: var(--wpk-space-1); }`];
  declare boardId: string;
  /** The object selected on the board (what a vote goes to). */
  declare selectedId: string | null;
  /** What a person reads for an object id. */
  declare nameOf: (id: string) => string;
  declare session: VoteSession | null;
  declare links: Record<string, string>;
  declare busy: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.selectedId = null;
    this.nameOf = (id) => id;
    this.session = null;
    this.links = {};
    this.busy = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadSession();
  }

  private get sessions(): string {
    return `/canvas/boards/${this.boardId}/vote-sessions`;
  }

  /** The newest voting session (open or closed), with the member's votes. */
  private async loadSession(): Promise<void> {
    try {
      const [newest] = (await kit().client.request<{ data: VoteSession[] }>('GET', this.sessions, { query: { per_page: 1 } })).data;
      this.session = newest ? (await kit().client.request<{ data: VoteSession }>('GET', `${this.sessions}/${newest.id}`)).data : null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async act(method: 'POST' | 'DELETE', path: string, body?: Record<string, unknown>): Promise<void> {
    try {
      await kit().client.request(method, `${this.sessions}${path}`, body ? { body } : {});
      this.error = null;
      await this.loadSession();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private start(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    void this.act('POST', '', { title: String(data.get('title') ?? ''), votes_per_member: Number(data.get('votes')) });
  }

  private voting(session: VoteSession | null) {
    if (!session || session.status === 'closed')
      return html`${session?.results
          ? html`<p>Results of ${session.title || 'the last vote'}: ${session.total_votes} votes from ${session.voter_count} ${session.voter_count === 1 ? 'member' : 'members'}.</p>
              <ol aria-label="Voting results">${session.results.map((tally) => html`<li>${this.nameOf(tally.object_id)}: ${tally.votes}</li>`)}</ol>`
          : html`<p class="muted">No vote on this board yet.</p>`}
        ${kit().can('canvas.votes.manage')
          ? html`<form class="row" aria-label="Start voting" @submit=${this.start}>
              <label>Question <input name="title" maxlength="200" /></label>
              <label>Votes per member <input name="votes" type="number" min="1" max="100" value="3" required /></label>
              <button type="submit">Start voting</button>
            </form>`
          : nothing}`;
    const mine = session.my_votes.find((tally) => tally.object_id === this.selectedId)?.votes ?? 0;
    return html`<p>${session.title || 'Voting'} is open: ${session.votes_left} of ${session.votes_per_member} votes left.</p>
      <div class="toolbar">
        ${!kit().can('canvas.votes.create')
          ? nothing
          : this.selectedId
          ? html`<button type="button" ?disabled=${session.votes_left === 0} @click=${() => this.act('POST', `/${session.id}/votes`, { object_id: this.selectedId })}>Vote for ${this.nameOf(this.selectedId)}</button>
              ${mine ? html`<button type="button" @click=${() => this.act('DELETE', `/${session.id}/votes/${this.selectedId}`)}>Take back a vote (${mine})</button>` : nothing}`
          : html`<span class="muted">Select an object on the board to vote for it.</span>`}
        ${kit().can('canvas.votes.manage') ? html`<button type="button" @click=${() => this.act('POST', `/${session.id}/close`)}>Close voting</button>` : nothing}
      </div>`;
  }

  private async render_(target: string): Promise<void> {
    this.busy = target;
    try {
      const answer = await kit().client.request<{ data: { download: { url: string } } }>('PUT', `/canvas/boards/${this.boardId}/exports/${target}`);
      this.links = { ...this.links, [target]: answer.data.download.url };
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = null;
    }
  }

  protected override render() {
    return html`<section aria-label="Voting"><h2>Voting</h2>${this.voting(this.session)}</section>
      <section aria-label="Exports">
      <h2>Export</h2>
      <div class="toolbar">
        ${TARGETS.map(([target, label]) => html`<button type="button" ?disabled=${this.busy !== null} @click=${() => this.render_(target)}>${this.busy === target ? `Rendering ${label}…` : `Export ${label}`}</button>
          ${this.links[target] ? html`<a href=${this.links[target]} target="_blank" rel="noopener" download>Download ${label}</a>` : nothing}`)}
      </div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    </section>`;
  }
}

customElements.define('canvas-board-extras', CanvasBoardExtras);
