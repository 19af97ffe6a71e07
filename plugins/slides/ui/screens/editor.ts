import { LitElement, errorText, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import type { CollabSession, Y } from '@wpk/ui/collab';
import { placeholders } from '../../src/services/placeholders.js';
import { textChange } from '../../src/services/text-change.js';
import { EDITOR_STYLES, LAYOUT_LABELS, STAGE_STYLES, readDeck, slideName, slideView, type Deck, type Slide } from '../api.js';

type Collab = typeof import('@wpk/ui/collab');
type YMap = Y.Map<unknown>;

/** A member's colour for who is here: a hue from their id, dark enough for white text. */
const hueOf = (id: string) => `hsl(${[...id].reduce((hash, char) => (hash * 33 + char.charCodeAt(0)) % 360, 7)} 70% 25%)`;

/**
 * `/decks/:deck_id`: the slide editor, written together live. The deck's slides are its
 * collaborative document (the kit's `CollabSession`, `@wpk/ui/collab`): every change made here
 * (a text typed, notes, a slide added, moved or deleted) is a Yjs update sent at once, everyone
 * else's arrive on the deck's channel and redraw the slides, a text field keeping its caret; who
 * is here is shown beside the status. Slides on the left (select, move up or down, delete, add one
 * of a layout), the selected slide drawn with a field for each of its texts and its speaker notes.
 */
export class SlidesEditor extends LitElement {
  static override properties = { deckId: { attribute: 'deck-id' }, deck: { state: true }, selected: { state: true }, error: { state: true } };
  static override styles = [screenStyles, STAGE_STYLES, EDITOR_STYLES];
  declare deckId: string;
  declare deck: Deck | null;
  declare selected: number;
  declare error: string | null;
  private collab: Collab | null = null;
  private session: CollabSession | null = null;
  /** The focused text field's selection, moved by a remote change, put back once redrawn. */
  private caret: { key: string; start: number; end: number } | null = null;

  constructor() {
    super();
    this.deck = null;
    this.selected = 0;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.session?.stop();
    this.session = null;
  }

  private async load(): Promise<void> {
    try {
      this.deck = await readDeck(this.deckId);
      void kit().bridge.title(this.deck.title);
      const collab = await import('@wpk/ui/collab');
      this.collab = collab;
      const session = new collab.CollabSession({ onChange: () => this.requestUpdate(), onLoad: () => this.requestUpdate() });
      session.doc.getArray<YMap>('slides').observeDeep((events, transaction) => {
        if (transaction.origin === collab.REMOTE) this.moveCaret(events);
        this.selected = Math.min(this.selected, Math.max(0, session.doc.getArray('slides').length - 1));
        this.requestUpdate();
      });
      this.session = session;
      const deckId = this.deckId;
      const me = kit().member;
      session.start(
        {
          channel: `slides/decks/${deckId}`,
          load: async () => (await kit().client.request<{ data: { update: string; editable: boolean } }>('GET', `/slides/decks/${deckId}/document`)).data,
          send: async (update) => void (await kit().client.request('POST', `/slides/decks/${deckId}/updates`, { body: { update } })),
        },
        { id: me.id, name: me.name, color: hueOf(me.id) },
      );
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** The slides as they are now (the document's JSON). */
  private slides(): Slide[] {
    return this.session ? (this.session.doc.getArray('slides').toJSON() as Slide[]) : [];
  }

  /** One change to the document, sent as one update (only for who may edit). */
  private edit(change: (slides: Y.Array<YMap>) => void): void {
    if (!this.session?.editable) return;
    this.session.doc.transact(() => change(this.session!.doc.getArray<YMap>('slides')));
  }

  /** A slide as the document holds it: its notes and texts `Y.Text`, its elements `Y.Map`s. */
  private slideMap(slide: Slide): YMap {
    const { Y } = this.collab!;
    const map = new Y.Map<unknown>();
    map.set('id', slide.id);
    map.set('layout', slide.layout);
    map.set('background', slide.background ?? null);
    map.set('notes', new Y.Text(slide.notes ?? ''));
    const elements = new Y.Array<YMap>();
    elements.push(
      slide.elements.map((element) => {
        const item = new Y.Map<unknown>();
        for (const [key, value] of Object.entries(element)) item.set(key, key === 'text' && typeof value === 'string' ? new Y.Text(value) : value);
        return item;
      }),
    );
    map.set('elements', elements);
    return map;
  }

  /** Writes a field's whole value into its `Y.Text` as the one stretch that changed (others' edits around it merge). */
  private write(text: unknown, value: string): void {
    if (!(text instanceof this.collab!.Y.Text)) return;
    const change = textChange(text.toString(), value);
    if (!change) return;
    if (change.remove > 0) text.delete(change.at, change.remove);
    if (change.insert) text.insert(change.at, change.insert);
  }

  /** The `Y.Text` a text field edits (`{slide id}/notes` or `{slide id}/{element id}`). */
  private textAt(key: string): Y.Text | null {
    const [slideId, field] = key.split('/');
    const slide = this.session?.doc.getArray<YMap>('slides').toArray().find((one) => one.get('id') === slideId);
    if (!slide) return null;
    const target = field === 'notes' ? slide.get('notes') : (slide.get('elements') as Y.Array<YMap> | undefined)?.toArray().find((one) => one.get('id') === field)?.get('text');
    return target instanceof this.collab!.Y.Text ? target : null;
  }

  private setText(key: string, value: string): void {
    this.edit(() => this.write(this.textAt(key), value));
  }

  /** Keeps the focused field's selection where it was in the text when someone else's change lands before it. */
  private moveCaret(events: Array<Y.YEvent<YMap>>): void {
    const field = this.shadowRoot?.activeElement;
    if (!(field instanceof HTMLTextAreaElement) || !field.dataset.key) return;
    const text = this.textAt(field.dataset.key);
    const event = events.find((one) => one.target === (text as unknown));
    if (!event) return;
    let start = field.selectionStart;
    let end = field.selectionEnd;
    let at = 0;
    for (const op of event.delta) {
      if (op.retain) at += op.retain;
      else if (op.insert !== undefined) {
        const length = typeof op.insert === 'string' ? op.insert.length : 1;
        if (at < start) start += length;
        if (at < end) end += length;
        at += length;
      } else if (op.delete) {
        if (at < start) start -= Math.min(op.delete, start - at);
        if (at < end) end -= Math.min(op.delete, end - at);
      }
    }
    this.caret = { key: field.dataset.key, start, end };
  }

  private add(layout: string): void {
    const id = `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const at = Math.min(this.selected + 1, this.slides().length);
    this.edit((slides) => slides.insert(at, [this.slideMap({ id, layout, notes: '', background: null, elements: placeholders(layout, this.deck!.theme) as Slide['elements'] })]));
    this.selected = at;
  }

  /** Moves a slide (a copy of it, where it goes: Yjs arrays do not move items). */
  private move(index: number, by: number): void {
    const slide = this.slides()[index];
    this.edit((slides) => {
      slides.delete(index, 1);
      slides.insert(index + by, [this.slideMap(slide)]);
    });
    this.selected = index + by;
  }

  private removeSlide(index: number): void {
    const count = this.slides().length;
    this.edit((slides) => slides.delete(index, 1));
    this.selected = Math.max(0, Math.min(this.selected, count - 2));
  }

  private async present(): Promise<void> {
    try {
      const existing = this.deck!.live_presentation_id;
      const id = existing ?? ((await kit().client.slides.postSlidesDecksByDeckIdPresentations({ params: { deck_id: this.deckId }, body: { slide: this.selected } })).data as { id: string }).id;
      await navigate(`/presentations/${id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override updated(): void {
    // Colours through the CSSOM: the frame's CSP refuses style attributes.
    for (const chip of this.shadowRoot?.querySelectorAll<HTMLElement>('.here span[data-color]') ?? []) chip.style.backgroundColor = chip.dataset.color ?? '';
    if (this.caret) {
      const field = this.shadowRoot?.querySelector<HTMLTextAreaElement>(`textarea[data-key="${this.caret.key}"]`);
      field?.setSelectionRange(this.caret.start, this.caret.end);
      this.caret = null;
    }
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const deck = this.deck;
    const session = this.session;
    if (!deck || !session || session.status === 'loading') return html`<p class="muted">Loading…</p>`;
    const slides = this.slides();
    const slide = slides[this.selected];
    const editable = session.editable;
    return html`<h1>${deck.title}</h1>
      <div class="row">
        <button type="button" ?disabled=${slides.length === 0} @click=${() => this.present()}>${deck.live_presentation_id ? 'Join the presentation' : 'Present'}</button>
        <label for="layout">New slide</label>
        <select id="layout" ?disabled=${!editable} @change=${(event: Event) => { const select = event.target as HTMLSelectElement; if (select.value) this.add(select.value); select.value = ''; }}>
          <option value="">Choose a layout…</option>
          ${Object.entries(LAYOUT_LABELS).map(([value, label]) => html`<option value=${value}>${label}</option>`)}
        </select>
        <span class="muted" role="status">${this.collab!.statusText(session.status)}</span>
        <span class="here row" role="group" aria-label="Who is here">${session.here.map((user) => html`<span data-color=${user.color} title=${user.name}>${user.name}</span>`)}</span>
      </div>
      <div class="editor">
        <ol class="slides" aria-label="Slides">
          ${slides.map((one, i) => html`<li class=${i === this.selected ? 'current' : ''}>
            <button type="button" class="pick" aria-current=${i === this.selected ? 'true' : 'false'} @click=${() => (this.selected = i)}>${i + 1}. ${slideName(one)}</button>
            <span class="row">
              <button type="button" aria-label=${`Move slide ${i + 1} up`} ?disabled=${!editable || i === 0} @click=${() => this.move(i, -1)}>↑</button>
              <button type="button" aria-label=${`Move slide ${i + 1} down`} ?disabled=${!editable || i === slides.length - 1} @click=${() => this.move(i, 1)}>↓</button>
              <button type="button" aria-label=${`Delete slide ${i + 1}`} ?disabled=${!editable} @click=${() => this.removeSlide(i)}>✕</button>
            </span>
          </li>`)}
        </ol>
        <section aria-label="Selected slide">
          ${slideView(slide, deck.theme, 560, `Slide ${this.selected + 1}`)}
          ${slide
            ? html`${slide.elements.filter((element) => element.type === 'text').map((element) => html`<label for=${`text-${element.id}`}>Text: ${element.id}</label>
                  <textarea id=${`text-${element.id}`} data-key=${`${slide.id}/${element.id}`} rows="2" maxlength="5000" ?readonly=${!editable} .value=${element.text ?? ''} @input=${(event: Event) => this.setText(`${slide.id}/${element.id}`, (event.target as HTMLTextAreaElement).value)}></textarea>`)}
                <label for="notes">Speaker notes</label>
                <textarea id="notes" data-key=${`${slide.id}/notes`} rows="4" maxlength="20000" ?readonly=${!editable} .value=${slide.notes} @input=${(event: Event) => this.setText(`${slide.id}/notes`, (event.target as HTMLTextAreaElement).value)}></textarea>`
            : html`<p class="muted">No slide: add one.</p>`}
        </section>
      </div>`;
  }
}

customElements.define('slides-editor', SlidesEditor);
