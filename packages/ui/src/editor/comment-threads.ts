import { css, html, LitElement, nothing } from 'lit';
import { errorText } from '../app.js';
import { sharedStyles } from '../components/shared-styles.js';
import { memberNamesById } from '../members.js';
import type { CommentAnchorDraft, WpkCollabEditor } from './collab-editor.js';

/** A comment as the API answers it (the SDK's comments kit: Papers' and Wiki's threads). */
export interface ThreadComment {
  id: string;
  thread_id: string;
  body: string;
  anchor: { from: string; to: string } | null;
  quote: string;
  author_id: string;
  edited_at: string | null;
  resolved_at: string | null;
}

/** The app's comment routes, for one document. */
export interface CommentThreadsApi {
  list(): Promise<ThreadComment[]>;
  create(input: { body: string; anchor?: { from: string; to: string }; quote?: string; thread_id?: string }): Promise<unknown>;
  update(id: string, input: { body?: string; resolved?: boolean }): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}

const MENTION = /<@([0-9a-f-]{36})>/gi;

/**
 * `<wpk-comment-threads>`: a document's comment threads beside `<wpk-collab-editor>` (docs/ui.md):
 * each thread with the text it quotes (Show selects its range in the editor, where it is now),
 * its comments and replies, resolve/reopen, delete (one's own, or anyone's for `moderator`).
 * A commenter starts a thread on the editor's selection (`editor.selectionAnchor()`). Call
 * `reload()` when the channel says a comment changed. `comment` (a comment's id, from a link's
 * `?comment=`) opens that comment's thread: scrolled to, marked as the current one, and its range
 * selected in the editor once the document is loaded (as Show does); a comment that is not there
 * (deleted, or never was) is a short notice.
 *
 * ```ts
 * html`<wpk-comment-threads .api=${api} .editor=${editorElement} member-id=${me.id} ?commenter=${true}></wpk-comment-threads>`
 * ```
 */
export class WpkCommentThreads extends LitElement {
  static override properties = {
    api: { attribute: false },
    editor: { attribute: false },
    memberId: { attribute: 'member-id' },
    commenter: { type: Boolean },
    moderator: { type: Boolean },
    comment: {},
    comments: { state: true },
    current: { state: true },
    notice: { state: true },
    names: { state: true },
    draft: { state: true },
    replying: { state: true },
    error: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      ol { list-style: none; padding: 0; margin: 0; display: grid; gap: var(--wpk-space-3); }
      article { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-2, 6px); padding: var(--wpk-space-2) var(--wpk-space-3); }
      article.resolved { border-style: dashed; }
      blockquote { margin: 0 0 var(--wpk-space-2); padding-inline-start: var(--wpk-space-2); border-inline-start: 3px solid var(--wpk-color-border); }
      .comment { margin: var(--wpk-space-1) 0; overflow-wrap: anywhere; }
      .who { font-weight: var(--wpk-font-weight-bold); }
      .muted { color: var(--wpk-color-text-muted); }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin: var(--wpk-space-2) 0; }
      textarea { width: 100%; min-height: 4rem; box-sizing: border-box; }
      label { display: grid; gap: var(--wpk-space-1); }
      article[aria-current='true'] { border-color: var(--wpk-color-brand); box-shadow: 0 0 0 1px var(--wpk-color-brand); }
    `,
  ];
  declare api: CommentThreadsApi | null;
  declare editor: WpkCollabEditor | null;
  declare memberId: string;
  declare commenter: boolean;
  declare moderator: boolean;
  declare comment: string | null;
  declare comments: ThreadComment[];
  /** The thread `comment` opened (marked `aria-current`). */
  declare current: string | null;
  declare notice: string | null;
  /** The `comment` already opened (it is opened once, not on each reload). */
  private opened: string | null = null;
  private listed = false;
  declare names: Map<string, string>;
  declare draft: CommentAnchorDraft | null;
  declare replying: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.api = null;
    this.editor = null;
    this.memberId = '';
    this.commenter = false;
    this.moderator = false;
    this.comment = null;
    this.comments = [];
    this.current = null;
    this.notice = null;
    this.names = new Map();
    this.draft = null;
    this.replying = null;
    this.error = null;
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('api') && this.api) void this.reload();
    else if (changed.has('comment') || changed.has('editor')) void this.open();
  }

  /** Opens the thread of `comment` once the threads are listed (see the class comment). */
  private async open(): Promise<void> {
    const id = this.comment?.toLowerCase() ?? null;
    if (!id || !this.listed || this.opened === id) return;
    this.opened = id;
    const found = this.comments.find((row) => row.id === id);
    const root = found ? this.comments.find((row) => row.id === found.thread_id) ?? found : null;
    if (!root) {
      this.current = null;
      this.notice = 'The comment this link points to is not here: it was deleted, or the link is wrong.';
      return;
    }
    this.notice = null;
    this.current = root.id;
    await this.updateComplete;
    this.renderRoot.querySelector(`article[data-thread="${root.id}"]`)?.scrollIntoView({ block: 'nearest' });
    if (!root.anchor) return;
    if (!this.editor) {
      this.opened = null; // again once the screen hands over its editor
      return;
    }
    await this.editor.loaded;
    this.show(root);
  }

  /** Show: selects the thread's range in the editor, where it is now. */
  private show(root: ThreadComment): void {
    if (!this.editor!.showAnchor(root.anchor!)) this.error = 'The text this thread was on is gone.';
  }

  /** Reads the threads again. */
  async reload(): Promise<void> {
    if (!this.api) return;
    try {
      this.comments = await this.api.list();
      this.listed = true;
      const missing = this.comments.map((comment) => comment.author_id).filter((id) => !this.names.has(id));
      if (missing.length) this.names = new Map([...this.names, ...(await memberNamesById(missing))]);
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
    await this.open();
  }

  private async act(run: () => Promise<unknown>): Promise<boolean> {
    try {
      await run();
      this.error = null;
      await this.reload();
      return true;
    } catch (error) {
      this.error = errorText(error);
      return false;
    }
  }

  private startDraft(): void {
    this.draft = this.editor?.selectionAnchor() ?? null;
    this.error = this.draft ? null : 'Select some text of the page to comment on it.';
  }

  private async submit(event: SubmitEvent, thread: string | null): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const body = String(new FormData(form).get('body') ?? '').trim();
    const draft = this.draft;
    const input = thread ? { body, thread_id: thread } : { body, ...(draft ? { anchor: { from: draft.from, to: draft.to }, quote: draft.quote } : {}) };
    if (await this.act(() => this.api!.create(input))) {
      form.reset();
      if (thread) this.replying = null;
      else this.draft = null;
    }
  }

  private text(body: string) {
    return body.replace(MENTION, (_all, id: string) => `@${this.names.get(id.toLowerCase()) ?? 'someone'}`);
  }

  private renderThread(root: ThreadComment, replies: ThreadComment[]) {
    const resolved = Boolean(root.resolved_at);
    const mine = (comment: ThreadComment) => comment.author_id === this.memberId;
    const comment = (row: ThreadComment) => html`<p class="comment"><span class="who">${this.names.get(row.author_id) ?? 'A member'}</span>: ${this.text(row.body)}${row.edited_at ? html` <span class="muted">(edited)</span>` : nothing}
        ${this.commenter && (mine(row) || this.moderator) ? html`<button type="button" @click=${() => this.act(() => this.api!.remove(row.id))}>Delete</button>` : nothing}</p>`;
    return html`<li>
      <article class=${resolved ? 'resolved' : ''} data-thread=${root.id} aria-current=${this.current === root.id ? 'true' : nothing} aria-label=${`Thread on ${root.quote || 'the page'}`}>
        ${root.quote ? html`<blockquote>${root.quote}</blockquote>` : html`<p class="muted">On the whole page</p>`}
        ${resolved ? html`<p class="muted">Resolved</p>` : nothing}
        ${comment(root)}${replies.map(comment)}
        <div class="actions">
          ${root.anchor && this.editor ? html`<button type="button" @click=${() => this.show(root)}>Show</button>` : nothing}
          ${this.commenter ? html`<button type="button" @click=${() => (this.replying = root.id)}>Reply</button>
              <button type="button" @click=${() => this.act(() => this.api!.update(root.id, { resolved: !resolved }))}>${resolved ? 'Reopen' : 'Resolve'}</button>` : nothing}
        </div>
        ${this.replying === root.id
          ? html`<form @submit=${(event: SubmitEvent) => this.submit(event, root.id)}>
              <label>Reply <textarea name="body" required maxlength="10000"></textarea></label>
              <div class="actions"><button type="submit">Send reply</button><button type="button" @click=${() => (this.replying = null)}>Cancel</button></div>
            </form>`
          : nothing}
      </article>
    </li>`;
  }

  protected override render() {
    const roots = this.comments.filter((comment) => comment.thread_id === comment.id);
    return html`<section aria-label="Comments">
      <h2>Comments</h2>
      ${this.error ? html`<p role="alert">${this.error}</p>` : nothing}
      ${this.notice ? html`<p role="status">${this.notice}</p>` : nothing}
      ${this.commenter
        ? this.draft
          ? html`<form @submit=${(event: SubmitEvent) => this.submit(event, null)}>
              <blockquote>${this.draft.quote}</blockquote>
              <label>Comment <textarea name="body" required maxlength="10000"></textarea></label>
              <div class="actions"><button type="submit">Start thread</button><button type="button" @click=${() => (this.draft = null)}>Cancel</button></div>
            </form>`
          : html`<div class="actions"><button type="button" @mousedown=${(event: Event) => event.preventDefault()} @click=${() => this.startDraft()}>Comment on the selection</button></div>`
        : nothing}
      ${roots.length
        ? html`<ol aria-label="Comment threads">${roots.map((root) => this.renderThread(root, this.comments.filter((comment) => comment.thread_id === root.id && comment.id !== root.id)))}</ol>`
        : html`<p class="muted">No comments yet.</p>`}
    </section>`;
  }
}

if (!customElements.get('wpk-comment-threads')) customElements.define('wpk-comment-threads', WpkCommentThreads);
