import { LitElement, errorText, html, isApiError, kit, navigate, screenStyles, toast } from '@wpk/ui';
import { EDITOR_STYLES, LAYOUT_LABELS, STAGE_STYLES, readDeck, slideName, slideView, type Deck, type Slide } from '../api.js';

/**
 * `/decks/:deck_id`: the slide editor. Slides on the left (select, move up or down, delete, add
 * one of a layout), the selected slide drawn with a field for each of its text elements and its
 * speaker notes. Save writes the whole deck on the version read; if someone saved since, the
 * server refuses (409) and the editor says so and reloads.
 */
export class SlidesEditor extends LitElement {
  static override properties = { deckId: { attribute: 'deck-id' }, deck: { state: true }, selected: { state: true }, dirty: { state: true }, error: { state: true } };
  static override styles = [screenStyles, STAGE_STYLES, EDITOR_STYLES];
  declare deckId: string;
  declare deck: Deck | null;
  declare selected: number;
  declare dirty: boolean;
  declare error: string | null;

  constructor() {
    super();
    this.deck = null;
    this.selected = 0;
    this.dirty = false;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.deck = await readDeck(this.deckId);
      this.selected = Math.min(this.selected, Math.max(0, this.deck.slides.length - 1));
      this.dirty = false;
      void kit().bridge.title(this.deck.title);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private change(slides: Slide[], selected = this.selected): void {
    this.deck = { ...this.deck!, slides };
    this.selected = selected;
    this.dirty = true;
  }

  private move(index: number, by: number): void {
    const slides = [...this.deck!.slides];
    const [slide] = slides.splice(index, 1);
    slides.splice(index + by, 0, slide);
    this.change(slides, index + by);
  }

  private add(layout: string): void {
    const slides = [...this.deck!.slides];
    slides.splice(this.selected + 1, 0, { layout } as Slide);
    void this.save(slides, this.selected + 1);
  }

  private setText(elementId: string, text: string): void {
    const slides = this.deck!.slides.map((slide, i) => (i === this.selected ? { ...slide, elements: slide.elements.map((element) => (element.id === elementId ? { ...element, text } : element)) } : slide));
    this.change(slides);
  }

  private setNotes(notes: string): void {
    this.change(this.deck!.slides.map((slide, i) => (i === this.selected ? { ...slide, notes } : slide)));
  }

  private async save(slides = this.deck!.slides, selected = this.selected): Promise<void> {
    try {
      this.deck = (await kit().client.slides.patchSlidesDecksByDeckId({ params: { deck_id: this.deckId }, body: { version: this.deck!.version, slides: slides as never } })).data as unknown as Deck;
      this.selected = selected;
      this.dirty = false;
      toast('Saved', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
      if (isApiError(error) && error.status === 409) await this.load();
    }
  }

  private async present(): Promise<void> {
    try {
      if (this.dirty) await this.save();
      const existing = this.deck!.live_presentation_id;
      const id = existing ?? ((await kit().client.slides.postSlidesDecksByDeckIdPresentations({ params: { deck_id: this.deckId }, body: { slide: this.selected } })).data as { id: string }).id;
      await navigate(`/presentations/${id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const deck = this.deck;
    if (!deck) return html`<p class="muted">Loading…</p>`;
    const slide = deck.slides[this.selected];
    return html`<h1>${deck.title}</h1>
      <div class="row">
        <button type="button" ?disabled=${!this.dirty} @click=${() => this.save()}>Save</button>
        <button type="button" ?disabled=${deck.slides.length === 0} @click=${() => this.present()}>${deck.live_presentation_id ? 'Join the presentation' : 'Present'}</button>
        <label for="layout">New slide</label>
        <select id="layout" @change=${(event: Event) => { const select = event.target as HTMLSelectElement; if (select.value) this.add(select.value); select.value = ''; }}>
          <option value="">Choose a layout…</option>
          ${Object.entries(LAYOUT_LABELS).map(([value, label]) => html`<option value=${value}>${label}</option>`)}
        </select>
        <span class="muted">Version ${deck.version}${this.dirty ? ' · unsaved changes' : ''}</span>
      </div>
      <div class="editor">
        <ol class="slides" aria-label="Slides">
          ${deck.slides.map((one, i) => html`<li class=${i === this.selected ? 'current' : ''}>
            <button type="button" class="pick" aria-current=${i === this.selected ? 'true' : 'false'} @click=${() => (this.selected = i)}>${i + 1}. ${slideName(one)}</button>
            <span class="row">
              <button type="button" aria-label=${`Move slide ${i + 1} up`} ?disabled=${i === 0} @click=${() => this.move(i, -1)}>↑</button>
              <button type="button" aria-label=${`Move slide ${i + 1} down`} ?disabled=${i === deck.slides.length - 1} @click=${() => this.move(i, 1)}>↓</button>
              <button type="button" aria-label=${`Delete slide ${i + 1}`} @click=${() => this.change(deck.slides.filter((_, j) => j !== i), Math.max(0, Math.min(this.selected, deck.slides.length - 2)))}>✕</button>
            </span>
          </li>`)}
        </ol>
        <section aria-label="Selected slide">
          ${slideView(slide, deck.theme, 560, `Slide ${this.selected + 1}`)}
          ${slide
            ? html`${slide.elements.filter((element) => element.type === 'text').map((element) => html`<label for=${`text-${element.id}`}>Text: ${element.id}</label>
                  <textarea id=${`text-${element.id}`} rows="2" .value=${element.text ?? ''} @input=${(event: Event) => this.setText(element.id, (event.target as HTMLTextAreaElement).value)}></textarea>`)}
                <label for="notes">Speaker notes</label>
                <textarea id="notes" rows="4" .value=${slide.notes} @input=${(event: Event) => this.setNotes((event.target as HTMLTextAreaElement).value)}></textarea>`
            : html`<p class="muted">No slide: add one.</p>`}
        </section>
      </div>`;
  }

}

customElements.define('slides-editor', SlidesEditor);
