import { LitElement, errorText, formatDate, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import { STAGE_STYLES, type DeckSummary } from '../api.js';

/** `/`: the decks, most recently changed first, and a form to make one. */
export class SlidesDecks extends LitElement {
  static override properties = { decks: { state: true }, error: { state: true } };
  static override styles = [screenStyles, STAGE_STYLES];
  declare decks: DeckSummary[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.decks = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Decks');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.decks = (await kit().client.slides.getSlidesDecks({ query: { per_page: 100 } })).data as DeckSummary[];
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const title = String(new FormData(form).get('title') ?? '').trim();
    if (!title) return;
    try {
      const deck = (await kit().client.slides.postSlidesDecks({ body: { title } })).data as { id: string };
      toast('Deck created', 'success');
      await navigate(`/decks/${deck.id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    return html`<h1>Decks</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <form class="row" @submit=${(event: SubmitEvent) => this.create(event)}>
        <label for="title">New deck title</label>
        <input id="title" name="title" required maxlength="200" />
        <button type="submit">Create deck</button>
      </form>
      ${this.decks === null
        ? html`<p class="muted">Loading…</p>`
        : this.decks.length
          ? html`<ul aria-label="Decks">${this.decks.map((deck) => html`<li><a href="#" @click=${(event: Event) => (event.preventDefault(), navigate(`/decks/${deck.id}`))}>${deck.title}</a> <span class="muted">· ${deck.slide_count} slide${deck.slide_count === 1 ? '' : 's'} · ${formatDate(deck.updated_at, { locale: kit().locale, timeZone: kit().timeZone })}</span></li>`)}</ul>`
          : html`<p class="muted">No deck yet.</p>`}`;
  }
}

customElements.define('slides-decks', SlidesDecks);
