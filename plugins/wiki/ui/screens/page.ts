import { LitElement, appLink, errorText, html, kit, memberColor, navigate, nothing, screenStyles, toast } from '@wpk/ui';
import type { CommentThreadsApi, ThreadComment, WpkCommentThreads } from '@wpk/ui/editor';
import { VERIFICATION_LABELS, WIKI_STYLES, get, pageLinksOf, send, type Page, type PageDocument, type PageSummary } from '../api.js';

/**
 * `/pages/{id}`: a page in the collaborative editor (`<wpk-collab-editor>`, loaded on demand from
 * `@wpk/ui/editor`): written live by the members with edit on its space, with carets and who is
 * here; read-only, and still live, for view and comment members. Editors may also rewrite it as
 * Markdown (where a link to a page by id is written `[text](page:id)`): saved with the version
 * read (a stale save says so and keeps the text), it reaches the open editors as one edit. Below:
 * the pages it links to, the pages linking to it, and its verification. Beside the editor, its
 * comment threads (`<wpk-comment-threads>`): comment members and above start one on a selection,
 * reply, resolve and reopen; they reload when the page's channel says a comment changed;
 * `?comment={id}` (a comment mention's link) opens that thread and selects its range. Editors
 * mark a page as a template (new pages start from it: the space's "From" choice) or unmark it.
 */
/** The roles that comment. */
const COMMENTERS = ['comment', 'edit', 'admin'];

export class WikiPage extends LitElement {
  static override properties = {
    pageId: { attribute: 'page-id' },
    commentId: { attribute: false },
    page: { state: true },
    backlinks: { state: true },
    editable: { state: true },
    role: { state: true },
    markdown: { state: true },
    ready: { state: true },
    error: { state: true },
  };
  static override styles = [screenStyles, WIKI_STYLES];
  declare pageId: string;
  /** The comment whose thread opens (a mention's link: `?comment={id}`), or null. */
  declare commentId: string | null;
  declare page: Page | null;
  declare backlinks: PageSummary[];
  declare editable: boolean;
  declare role: string;
  declare markdown: boolean;
  declare ready: boolean;
  declare error: string | null;

  constructor() {
    super();
    this.pageId = '';
    this.commentId = null;
    this.page = null;
    this.backlinks = [];
    this.editable = false;
    this.role = 'view';
    this.markdown = false;
    this.ready = false;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('pageId') && changed.get('pageId') !== undefined) void this.load();
    // The threads select their ranges in the editor beside them.
    const threads = this.renderRoot.querySelector<WpkCommentThreads>('wpk-comment-threads');
    if (threads) threads.editor = this.renderRoot.querySelector('wpk-collab-editor');
  }

  private async load(): Promise<void> {
    // Another page: its own editor (the editor follows one document for its life).
    if (this.page && this.page.id !== this.pageId) {
      this.page = null;
      this.markdown = false;
    }
    try {
      this.page = await get<Page>(`/wiki/pages/${this.pageId}`);
      this.backlinks = await get<PageSummary[]>(`/wiki/pages/${this.pageId}/backlinks`);
      void kit().bridge.title(this.page.title);
      this.error = null;
      await import('@wpk/ui/editor');
      this.ready = true;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** Reads the page again (its version, links and verification) without touching the editor. */
  private async refresh(): Promise<void> {
    try {
      this.page = await get<Page>(`/wiki/pages/${this.pageId}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    try {
      this.page = await send<Page>('PATCH', `/wiki/pages/${this.pageId}`, { version: this.page!.version, title: String(data.get('title') ?? '').trim(), markdown: String(data.get('markdown') ?? '') });
      this.markdown = false;
      toast('Page saved', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async openMarkdown(): Promise<void> {
    await this.refresh();
    this.markdown = true;
  }

  /** Marks the page a template (new pages may start from it, in any space) or unmarks it. */
  private async markTemplate(template: boolean): Promise<void> {
    try {
      this.page = await send<Page>('PATCH', `/wiki/pages/${this.pageId}`, { template });
      toast(template ? 'Page marked as a template' : 'Page is no longer a template', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async verify(): Promise<void> {
    try {
      this.page = await send<Page>('POST', `/wiki/pages/${this.pageId}/verification`, {});
      toast('Page verified', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private api: { pageId: string; api: CommentThreadsApi } | null = null;

  /** The page's comment routes for `<wpk-comment-threads>` (the same object while the page is open). */
  private commentsApi(pageId: string): CommentThreadsApi {
    if (this.api?.pageId !== pageId) {
      this.api = {
        pageId,
        api: {
          list: () => get<ThreadComment[]>(`/wiki/pages/${pageId}/comments`),
          create: (input) => send('POST', `/wiki/pages/${pageId}/comments`, input),
          update: (commentId, input) => send('PATCH', `/wiki/comments/${commentId}`, input),
          remove: (commentId) => send('DELETE', `/wiki/comments/${commentId}`),
        },
      };
    }
    return this.api.api;
  }

  protected override render() {
    const page = this.page;
    if (!page) return html`${this.error ? html`<p class="error" role="alert">${this.error}</p>` : html`<p class="muted">Loading…</p>`}`;
    const me = kit().member;
    const id = page.id;
    const transport = {
      channel: `wiki/pages/${id}`,
      load: async () => {
        const document = await get<PageDocument>(`/wiki/pages/${id}/document`);
        this.editable = document.editable;
        this.role = document.role;
        return { update: document.update, editable: document.editable };
      },
      send: async (update: string) => void (await send('POST', `/wiki/pages/${id}/updates`, { update })),
      event: (name: string) => {
        if (name.startsWith('comment.')) void this.renderRoot.querySelector<WpkCommentThreads>('wpk-comment-threads')?.reload();
      },
    };
    const links = pageLinksOf(page.content);
    return html`<p>${appLink(`/spaces/${page.space_id}`, 'Back to the space')}</p>
      ${this.markdown
        ? html`<form @submit=${(event: SubmitEvent) => this.save(event)}>
            <p><label>Title <input name="title" required maxlength="300" .value=${page.title} /></label></p>
            <p><label for="markdown">Content (Markdown; link a page as [text](page:id))</label></p>
            <textarea id="markdown" name="markdown" .value=${page.markdown}></textarea>
            <div class="actions"><button type="submit">Save</button><button type="button" @click=${() => { this.markdown = false; }}>Cancel</button></div>
          </form>`
        : html`<h1>${page.title}</h1>
          <p class="muted">Version ${page.version} · <span class="badge">${VERIFICATION_LABELS[page.verification]}</span>${page.due_at ? ` · review by ${page.due_at.slice(0, 10)}` : ''}${page.parent_hidden ? ' · its parent page is hidden from you' : ''}${page.template ? html` · <span class="badge">Template</span>` : ''}</p>
          <div class="actions">
            ${this.editable ? html`<button type="button" @click=${() => this.openMarkdown()}>Edit as Markdown</button><button type="button" @click=${() => this.verify()}>Verify</button><button type="button" @click=${() => this.markTemplate(!page.template)}>${page.template ? 'Unmark as template' : 'Mark as template'}</button>` : html`<span class="muted">You can read this page; editing it needs the edit role on its space.</span>`}
          </div>
          ${this.ready
            ? html`<div class="with-comments">
                <wpk-collab-editor .transport=${transport} .user=${{ id: me.id, name: me.name, color: memberColor(me.id) }} .findMembers=${(query: string) => kit().bridge.findMembers(query)} label=${page.title}></wpk-collab-editor>
                <wpk-comment-threads .api=${this.commentsApi(id)} member-id=${me.id} comment=${this.commentId ?? nothing} ?commenter=${COMMENTERS.includes(this.role)} ?moderator=${this.role === 'admin'}></wpk-comment-threads>
              </div>`
            : html`<p class="muted">Loading the editor…</p>`}`}
      <h2>Links on this page</h2>
      ${links.length ? html`<ul class="tree" aria-label="Links on this page">${links.map((link) => html`<li><a href="#" @click=${(event: Event) => { event.preventDefault(); navigate(`/pages/${link.id}`); }}>${link.text}</a></li>`)}</ul>` : html`<p class="muted">This page links to no page.</p>`}
      <h2>Linked from</h2>
      ${this.backlinks.length ? html`<ul class="tree" aria-label="Linked from">${this.backlinks.map((row) => html`<li>${appLink(`/pages/${row.id}`, row.title)}</li>`)}</ul>` : html`<p class="muted">No page links here.</p>`}`;
  }
}

customElements.define('wiki-page', WikiPage);
