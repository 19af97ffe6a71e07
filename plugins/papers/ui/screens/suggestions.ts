import { css, errorText, formatDate, html, kit, LitElement, memberNamesById, nothing, screenStyles, toast } from '@wpk/ui';
import type { WpkCollabEditor } from '@wpk/ui/editor';
import { api, PAPERS_STYLES, type PaperWithContent } from '../api.js';

/** A suggestion as `GET /papers/{id}/suggestions` answers it. */
interface Suggestion {
  id: string;
  note: string;
  update: string;
  author_id: string;
  created_at: string;
}

type Preview = { inserted: string[]; deleted: string[] };

const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** What the member may do with suggestions on this paper (docs/apps/papers.md, "Suggesting"). */
export function suggestionRights(paper: PaperWithContent): { edit: boolean; suggest: boolean } {
  const level = paper.level === 'owner' || paper.level === 'edit';
  const edit = level && kit().can('papers.papers.edit');
  return { edit, suggest: level && (edit || kit().can('papers.papers.suggest')) };
}

/**
 * The Suggestions panel beside a paper's `<wpk-collab-editor>` (its sibling in the screen): for
 * one who may suggest, the Suggest changes switch (always on for one who may only suggest), a note
 * and Submit suggestion, which sends the editor's fork (`POST /papers/{id}/suggestions`); for
 * everyone, the open suggestions (who, when, the text each adds and removes against the paper as
 * it is now), with Accept and Reject for one who may edit. The list follows the channel's
 * `suggestion.created|decided`.
 */
export class PapersSuggestions extends LitElement {
  static override properties = {
    paper: { attribute: false },
    rows: { state: true },
    names: { state: true },
    previews: { state: true },
    suggesting: { state: true },
    error: { state: true },
  };
  static override styles = [
    screenStyles,
    PAPERS_STYLES,
    css`
      :host { display: block; margin: var(--wpk-space-3) 0; }
      h2 { margin: 0 0 var(--wpk-space-2); font-size: 1.2rem; }
      ol { list-style: none; padding: 0; margin: 0; display: grid; gap: var(--wpk-space-2); }
      article { border: 1px solid var(--wpk-color-border); border-radius: 6px; padding: var(--wpk-space-2) var(--wpk-space-3); overflow-wrap: anywhere; }
      article p { margin: 4px 0; }
      ins { background: #dcfce7; color: #14532d; }
      del { background: #fee2e2; color: #7f1d1d; }
      button[aria-pressed='true'] { background: #1d4ed8; color: #fff; }
      form label { max-width: 30rem; }
    `,
  ];
  declare paper: PaperWithContent;
  declare rows: Suggestion[];
  declare names: Map<string, string>;
  declare previews: Map<string, Preview>;
  declare suggesting: boolean;
  declare error: string | null;
  private turn = 0;

  constructor() {
    super();
    this.rows = [];
    this.names = new Map();
    this.previews = new Map();
    this.suggesting = false;
    this.error = null;
  }

  private get editor(): WpkCollabEditor | null {
    return (this.getRootNode() as ShadowRoot).querySelector<WpkCollabEditor>('wpk-collab-editor');
  }

  protected override firstUpdated(): void {
    const editor = this.editor;
    this.suggesting = editor?.suggesting ?? false;
    editor?.addEventListener('collab-load', () => void this.reload());
    editor?.addEventListener('collab-event', (event) => {
      if ((event as CustomEvent<{ name: string }>).detail.name.startsWith('suggestion.')) void this.reload();
    });
    void this.reload();
  }

  /** The open suggestions, their authors' names, and what each changes in the paper as the editor holds it now. */
  async reload(): Promise<void> {
    // Reloads overlap (a channel event during a load): only the latest one's answer is shown.
    const turn = ++this.turn;
    try {
      const rows = (await api<Suggestion[]>('GET', `/papers/${this.paper.id}/suggestions`, undefined, { status: 'open', per_page: 100 })).data;
      const { describeSuggestion } = await import('@wpk/ui/editor');
      const doc = this.editor?.doc;
      const previews = new Map<string, Preview>();
      for (const row of rows) {
        try {
          previews.set(row.id, doc ? describeSuggestion(doc, fromBase64(row.update)) : { inserted: [], deleted: [] });
        } catch {
          previews.set(row.id, { inserted: [], deleted: [] });
        }
      }
      const names = await memberNamesById(rows.map((row) => row.author_id));
      if (turn !== this.turn) return;
      this.previews = previews;
      this.names = names;
      this.rows = rows;
    } catch (error) {
      if (turn === this.turn) this.error = errorText(error);
    }
  }

  private toggle(): void {
    const editor = this.editor;
    if (!editor) return;
    editor.suggesting = !editor.suggesting;
    this.suggesting = editor.suggesting;
    this.error = null;
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const editor = this.editor;
    const update = editor?.suggestion();
    if (!editor || !update) {
      this.error = 'Nothing to suggest yet: type your change in the paper first';
      return;
    }
    const note = (form.elements.namedItem('note') as HTMLInputElement).value.trim();
    try {
      await api('POST', `/papers/${this.paper.id}/suggestions`, { update, ...(note ? { note } : {}) });
      editor.discardSuggestion();
      form.reset();
      this.error = null;
      toast('Suggestion sent for review', 'success');
      await this.reload();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private discard(): void {
    this.editor?.discardSuggestion();
    this.error = null;
  }

  private async decide(row: Suggestion, accept: boolean): Promise<void> {
    try {
      await api('POST', `/papers/suggestions/${row.id}/${accept ? 'accept' : 'reject'}`);
      this.error = null;
      toast(accept ? 'Suggestion accepted' : 'Suggestion rejected', 'success');
      await this.reload();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    const rights = suggestionRights(this.paper);
    return html`<section aria-labelledby="suggestions-title">
      <h2 id="suggestions-title">Suggestions</h2>
      ${rights.suggest
        ? html`${rights.edit
              ? html`<button type="button" class="secondary" aria-pressed=${this.suggesting ? 'true' : 'false'} @click=${this.toggle}>Suggest changes</button>`
              : html`<p class="muted">You may suggest changes to this paper: type them in it, then submit them for review.</p>`}
            ${this.suggesting
              ? html`<form class="row" @submit=${this.submit}>
                  <label>Note for the reviewer (optional) <input name="note" maxlength="1000" /></label>
                  <button type="button" class="secondary" @click=${this.discard}>Discard changes</button>
                  <button type="submit">Submit suggestion</button>
                </form>`
              : nothing}`
        : nothing}
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      ${this.rows.length
        ? html`<ol aria-label="Open suggestions">
            ${this.rows.map((row) => {
              const name = this.names.get(row.author_id) ?? 'A member';
              const preview = this.previews.get(row.id) ?? { inserted: [], deleted: [] };
              return html`<li>
                <article aria-label=${`Suggestion by ${name}`}>
                  <p><strong>${name}</strong> <span class="muted">${formatDate(row.created_at, { locale: kit().locale, timeZone: kit().timeZone, style: 'datetime' })}</span></p>
                  ${row.note ? html`<p>${row.note}</p>` : nothing}
                  ${preview.inserted.map((text) => html`<p>Adds <ins>${text}</ins></p>`)}
                  ${preview.deleted.map((text) => html`<p>Removes <del>${text}</del></p>`)}
                  ${rights.edit
                    ? html`<div class="actions">
                        <button type="button" class="secondary" @click=${() => this.decide(row, false)}>Reject</button>
                        <button type="button" @click=${() => this.decide(row, true)}>Accept</button>
                      </div>`
                    : nothing}
                </article>
              </li>`;
            })}
          </ol>`
        : html`<p class="muted">No open suggestions.</p>`}
    </section>`;
  }
}

customElements.define('papers-suggestions', PapersSuggestions);
