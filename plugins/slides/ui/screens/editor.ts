import { LitElement, errorText, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import type { CollabSession, Y } from '@wpk/ui/collab';
import { placeholders } from '../../src/services/placeholders.js';
import { textChange } from '../../src/services/text-change.js';
import { allKeyed, keyAt, keysInRow, sortByOrder } from '../../src/services/order.js';
import { EDITOR_STYLES, LAYOUT_LABELS, STAGE_STYLES, readDeck, slideName, slideView, type Deck, type Element, type Slide, type Theme } from '../api.js';

type Collab = typeof import('@wpk/ui/collab');
type YMap = Y.Map<unknown>;

/** A member's colour for who is here: a hue from their id, dark enough for white text. */
/** The themes the editor offers (any theme a PATCH writes is kept and shown as "Custom"). */
const THEMES: Record<string, Theme> = {
  Light: { font: 'sans', background: '#ffffff', text: '#1f2937', accent: '#d97706' },
  Dark: { font: 'sans', background: '#111827', text: '#f9fafb', accent: '#22c55e' },
  Paper: { font: 'serif', background: '#fdf6e3', text: '#3b3024', accent: '#b45309' },
  Code: { font: 'mono', background: '#0f172a', text: '#e2e8f0', accent: '#38bdf8' },
};
/** How far an arrow key moves the selected element (with Shift: ten times as far). */
const NUDGE = 10;
const GEOMETRY = ['x', 'y', 'width', 'height'] as const;

const hueOf = (id: string) => `hsl(${[...id].reduce((hash, char) => (hash * 33 + char.charCodeAt(0)) % 360, 7)} 70% 25%)`;

/**
 * `/decks/:deck_id`: the slide editor, written together live. The deck is its collaborative
 * document (the kit's `CollabSession`, `@wpk/ui/collab`): every change made here (the title, the
 * theme, a text typed, notes, a slide added, moved or deleted, an element moved, resized or
 * restyled) is a Yjs update sent at once; a move changes the slide's order key only, so an edit
 * someone makes inside it meanwhile survives; everyone
 * else's arrive on the deck's channel and redraw the slides, a text field keeping its caret; who
 * is here is shown beside the status. Slides on the left (select, move up or down, delete, add one
 * of a layout), the selected slide drawn with a field for each of its texts and its speaker notes.
 */
export class SlidesEditor extends LitElement {
  static override properties = { deckId: { attribute: 'deck-id' }, deck: { state: true }, selected: { state: true }, element: { state: true }, error: { state: true } };
  static override styles = [screenStyles, STAGE_STYLES, EDITOR_STYLES];
  declare deckId: string;
  declare deck: Deck | null;
  declare selected: number;
  /** The selected element's id on the selected slide (moved with the arrow keys, or by its fields). */
  declare element: string | null;
  declare error: string | null;
  private collab: Collab | null = null;
  private session: CollabSession | null = null;
  /** The focused text field's selection, moved by a remote change, put back once redrawn. */
  private caret: { key: string; start: number; end: number } | null = null;
  /** The selected slide's id as last drawn. */
  private selectedId: string | undefined;

  constructor() {
    super();
    this.deck = null;
    this.selected = 0;
    this.element = null;
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
      session.doc.getMap('deck').observe(() => this.requestUpdate());
      session.doc.getArray<YMap>('slides').observeDeep((events, transaction) => {
        if (transaction.origin === collab.REMOTE) this.moveCaret(events);
        // The selected slide stays selected wherever someone moves it.
        const kept = this.slides().findIndex((one) => one.id === this.selectedId);
        this.selected = kept >= 0 ? kept : Math.min(this.selected, Math.max(0, session.doc.getArray('slides').length - 1));
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

  /** The slides as they are now (the document's JSON), in their keys' order. */
  private slides(): Slide[] {
    return this.session ? sortByOrder(this.session.doc.getArray('slides').toJSON() as Slide[]) : [];
  }

  /** The title and theme as they are now (the document's `deck` map; the row's until it has them). */
  private fields(): { title: string; theme: Theme } {
    const map = this.session?.doc.getMap('deck');
    return { title: (map?.get('title') as string | undefined) ?? this.deck!.title, theme: (map?.get('theme') as Theme | undefined) ?? this.deck!.theme };
  }

  /** The slide's `Y.Map` by id (wherever it sits in the array: the order is the keys'). */
  private slideAt(id: string): YMap | undefined {
    return this.session?.doc.getArray<YMap>('slides').toArray().find((one) => one.get('id') === id);
  }

  /** An element's `Y.Map` on a slide, by ids. */
  private elementMap(slideId: string, elementId: string): YMap | undefined {
    return (this.slideAt(slideId)?.get('elements') as Y.Array<YMap> | undefined)?.toArray().find((one) => one.get('id') === elementId);
  }

  /** Sets the selected element's fields (one update). */
  private setElement(values: Partial<Element>): void {
    const slide = this.slides()[this.selected];
    if (!slide || !this.element) return;
    this.edit(() => {
      const map = this.elementMap(slide.id, this.element!);
      if (map) for (const [key, value] of Object.entries(values)) map.set(key, value);
    });
  }

  private setTitle(value: string): void {
    // An empty title is refused by the server: it is written once there is one.
    if (value.trim()) this.edit(() => this.session!.doc.getMap('deck').set('title', value));
  }

  private setTheme(name: string): void {
    const theme = THEMES[name];
    if (theme) this.edit(() => this.session!.doc.getMap('deck').set('theme', theme));
  }

  /** Arrow keys nudge the selected element (Shift: ten times as far). */
  private nudge(event: KeyboardEvent): void {
    const by = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    const element = this.slides()[this.selected]?.elements.find((one) => one.id === this.element);
    if (!by || !element) return;
    event.preventDefault();
    const step = event.shiftKey ? NUDGE * 10 : NUDGE;
    this.setElement({ x: element.x + by[0]! * step, y: element.y + by[1]! * step });
  }

  /** Dragging the selected slide's picture moves the selected element by the pointer's way, scaled to the stage. */
  private drag(down: PointerEvent): void {
    const element = this.slides()[this.selected]?.elements.find((one) => one.id === this.element);
    const stage = down.currentTarget as HTMLElement;
    if (!element || !this.session?.editable) return;
    const scale = 1280 / (stage.querySelector('.stage-frame') ?? stage).getBoundingClientRect().width;
    const start = { x: down.clientX, y: down.clientY, left: element.x, top: element.y };
    stage.setPointerCapture(down.pointerId);
    const move = (event: PointerEvent) => this.setElement({ x: Math.round(start.left + (event.clientX - start.x) * scale), y: Math.round(start.top + (event.clientY - start.y) * scale) });
    const up = () => {
      stage.removeEventListener('pointermove', move);
      stage.removeEventListener('pointerup', up);
    };
    stage.addEventListener('pointermove', move);
    stage.addEventListener('pointerup', up);
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
    if (slide.order) map.set('order', slide.order);
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
    const sorted = this.slides();
    const at = Math.min(this.selected + 1, sorted.length);
    this.edit((slides) => {
      let order = allKeyed(sorted) ? keyAt(sorted, at) : null;
      if (order === null) {
        const keys = keysInRow(sorted.length + 1);
        sorted.forEach((one, i) => this.slideAt(one.id)?.set('order', keys[i < at ? i : i + 1]));
        order = keys[at]!;
      }
      slides.push([this.slideMap({ id, order, layout, notes: '', background: null, elements: placeholders(layout, this.fields().theme) as Slide['elements'] })]);
    });
    this.selected = at;
  }

  /**
   * Moves a slide by giving it an order key between its new neighbours' (the slide itself stays
   * where it is in the document, so an edit made inside it meanwhile survives). A deck without keys
   * (older than them), or two equal keys in the way, first has every slide keyed in its order.
   */
  private move(index: number, by: number): void {
    this.edit(() => {
      let sorted = this.slides();
      let key = allKeyed(sorted) ? keyAt(sorted.filter((_one, i) => i !== index), index + by) : null;
      if (key === null) {
        const keys = keysInRow(sorted.length);
        sorted.forEach((one, i) => this.slideAt(one.id)?.set('order', keys[i]));
        sorted = sorted.map((one, i) => ({ ...one, order: keys[i] }));
        key = keyAt(sorted.filter((_one, i) => i !== index), index + by)!;
      }
      this.slideAt(sorted[index]!.id)?.set('order', key);
    });
    this.selected = index + by;
  }

  private removeSlide(index: number): void {
    const count = this.slides().length;
    const id = this.slides()[index]?.id;
    this.edit((slides) => {
      const at = slides.toArray().findIndex((one) => one.get('id') === id);
      if (at >= 0) slides.delete(at, 1);
    });
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

  /** The selected element's position, size and basic style, each a number or colour field written live. */
  private elementFields(element: Element, editable: boolean) {
    const number = (field: 'x' | 'y' | 'width' | 'height' | 'font_size', label: string) =>
      html`<label for=${`field-${field}`}>${label}</label><input id=${`field-${field}`} type="number" ?readonly=${!editable} .value=${String(element[field] ?? '')} @change=${(event: Event) => {
        const value = Number((event.target as HTMLInputElement).value);
        if (Number.isFinite(value)) this.setElement({ [field]: value });
      }} />`;
    const colour = (field: 'fill' | 'color', label: string) =>
      html`<label for=${`field-${field}`}>${label}</label><input id=${`field-${field}`} type="color" ?disabled=${!editable} .value=${element[field] ?? '#000000'} @change=${(event: Event) => this.setElement({ [field]: (event.target as HTMLInputElement).value })} />`;
    const hasText = element.type === 'text' || element.type === 'shape' || element.type === 'table';
    return html`<fieldset class="fields"><legend>Position and style</legend>
      ${element.type === 'line' ? [number('x', 'X'), number('y', 'Y')] : GEOMETRY.map((field) => number(field, { x: 'X', y: 'Y', width: 'Width', height: 'Height' }[field]))}
      ${element.type === 'shape' ? colour('fill', 'Fill') : ''}
      ${hasText ? [colour('color', 'Text colour'), number('font_size', 'Font size')] : ''}
    </fieldset>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const deck = this.deck;
    const session = this.session;
    if (!deck || !session || session.status === 'loading') return html`<p class="muted">Loading…</p>`;
    const slides = this.slides();
    const slide = slides[this.selected];
    this.selectedId = slide?.id;
    const editable = session.editable;
    const { title, theme } = this.fields();
    const themeName = Object.entries(THEMES).find(([, one]) => JSON.stringify(one) === JSON.stringify({ font: theme.font, background: theme.background, text: theme.text, accent: theme.accent }))?.[0] ?? '';
    const element = slide?.elements.find((one) => one.id === this.element);
    return html`<h1>${title}</h1>
      <div class="row">
        <label for="deck-title">Deck title</label>
        <input id="deck-title" maxlength="200" ?readonly=${!editable} .value=${title} @input=${(event: Event) => this.setTitle((event.target as HTMLInputElement).value)} />
        <label for="theme">Theme</label>
        <select id="theme" ?disabled=${!editable} @change=${(event: Event) => this.setTheme((event.target as HTMLSelectElement).value)}>
          ${themeName ? '' : html`<option value="" selected>Custom</option>`}
          ${Object.keys(THEMES).map((name) => html`<option value=${name} ?selected=${name === themeName}>${name}</option>`)}
        </select>
      </div>
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
          <div class="stage-edit" role="group" tabindex="0" aria-label="Slide stage: arrow keys move the selected element" @keydown=${(event: KeyboardEvent) => this.nudge(event)} @pointerdown=${(event: PointerEvent) => this.drag(event)}>${slideView(slide, theme, 560, `Slide ${this.selected + 1}`)}</div>
          ${slide
            ? html`<label for="element">Element</label>
                <select id="element" ?disabled=${!editable} @change=${(event: Event) => (this.element = (event.target as HTMLSelectElement).value || null)}>
                  <option value="" ?selected=${!element}>None</option>
                  ${slide.elements.map((one) => html`<option value=${one.id} ?selected=${one.id === element?.id}>${one.type}: ${one.id}</option>`)}
                </select>
                ${element ? this.elementFields(element, editable) : ''}
                ${slide.elements.filter((element) => element.type === 'text').map((element) => html`<label for=${`text-${element.id}`}>Text: ${element.id}</label>
                  <textarea id=${`text-${element.id}`} data-key=${`${slide.id}/${element.id}`} rows="2" maxlength="5000" ?readonly=${!editable} .value=${element.text ?? ''} @input=${(event: Event) => this.setText(`${slide.id}/${element.id}`, (event.target as HTMLTextAreaElement).value)}></textarea>`)}
                <label for="notes">Speaker notes</label>
                <textarea id="notes" data-key=${`${slide.id}/notes`} rows="4" maxlength="20000" ?readonly=${!editable} .value=${slide.notes} @input=${(event: Event) => this.setText(`${slide.id}/notes`, (event.target as HTMLTextAreaElement).value)}></textarea>`
            : html`<p class="muted">No slide: add one.</p>`}
        </section>
      </div>`;
  }
}

customElements.define('slides-editor', SlidesEditor);
