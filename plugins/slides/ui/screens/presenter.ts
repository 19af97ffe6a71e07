import { LitElement, css, errorText, html, kit, liveConnection, screenStyles, toast, type LiveEvent } from '@wpk/ui';
import { STAGE_STYLES, readDeck, slideView, type Deck, type Presentation } from '../api.js';

/**
 * `/presentations/:presentation_id`: the driver's presenter view (the slide, the next one, the
 * speaker notes, a timer, Previous / Next, hand on, End) or, for everyone else, the follow view:
 * the slide the driver shows, moved live by the presentation's channel.
 */
export class SlidesPresenter extends LitElement {
  static override properties = { presentationId: { attribute: 'presentation-id' }, presentation: { state: true }, deck: { state: true }, now: { state: true }, error: { state: true } };
  static override styles = [screenStyles, STAGE_STYLES, css`.presenter { display: grid; gap: var(--wpk-space-3); } .presenter > * { min-width: 0; } @media (min-width: 900px) { .presenter { grid-template-columns: 2fr 1fr; } } .timer { font-variant-numeric: tabular-nums; font-size: 1.5rem; } .notes { white-space: pre-wrap; }`];
  declare presentationId: string;
  declare presentation: Presentation | null;
  declare deck: Deck | null;
  declare now: number;
  declare error: string | null;
  private stop: (() => void) | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;

  constructor() {
    super();
    this.presentation = null;
    this.deck = null;
    this.now = Date.now();
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    this.ticker = setInterval(() => (this.now = Date.now()), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop?.();
    if (this.ticker) clearInterval(this.ticker);
  }

  private async load(): Promise<void> {
    try {
      this.presentation = (await kit().client.slides.getSlidesPresentationsByPresentationId({ params: { presentation_id: this.presentationId } })).data as Presentation;
      this.deck = await readDeck(this.presentation.deck_id);
      void kit().bridge.title(this.deck.title);
      this.stop ??= liveConnection().follow(this.presentation.channel, {
        subscribed: () => undefined,
        event: (event: LiveEvent) => this.apply(event),
        lost: () => undefined,
      });
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private apply(event: LiveEvent): void {
    const data = event.data as Record<string, unknown>;
    if (!this.presentation) return;
    if (event.event === 'slide.changed') this.presentation = { ...this.presentation, slide: data.slide as number, driver_id: data.driver_id as string };
    if (event.event === 'driver.changed') this.presentation = { ...this.presentation, driver_id: data.driver_id as string };
    if (event.event === 'presentation.ended') this.presentation = { ...this.presentation, status: 'ended' };
  }

  private async go(slide: number): Promise<void> {
    try {
      this.presentation = (await kit().client.slides.patchSlidesPresentationsByPresentationId({ params: { presentation_id: this.presentationId }, body: { slide } })).data as Presentation;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async end(): Promise<void> {
    try {
      this.presentation = (await kit().client.slides.deleteSlidesPresentationsByPresentationId({ params: { presentation_id: this.presentationId } })).data as Presentation;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private elapsed(): string {
    const seconds = Math.max(0, Math.floor((this.now - new Date(this.presentation!.started_at).getTime()) / 1000));
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const { presentation, deck } = this;
    if (!presentation || !deck) return html`<p class="muted">Loading…</p>`;
    const at = presentation.slide;
    const count = deck.slides.length;
    if (presentation.status === 'ended') return html`<h1>${deck.title}</h1><p role="status">The presentation has ended.</p>`;
    const driving = presentation.driver_id === kit().member.id;
    if (!driving) {
      return html`<h1>${deck.title}</h1>
        <p class="muted" role="status">Following the presenter · slide ${at + 1} of ${count}</p>
        ${slideView(deck.slides[at], deck.theme, 960, `Slide ${at + 1} of ${count}`)}`;
    }
    return html`<h1>${deck.title}</h1>
      <div class="row">
        <button type="button" ?disabled=${at === 0} @click=${() => this.go(at - 1)}>Previous</button>
        <button type="button" ?disabled=${at >= count - 1} @click=${() => this.go(at + 1)}>Next</button>
        <span role="status" id="position">Slide ${at + 1} of ${count}</span>
        <span class="timer" aria-label="Elapsed time">${this.elapsed()}</span>
        <button type="button" @click=${() => this.end()}>End presentation</button>
      </div>
      <div class="presenter">
        <section aria-label="Current slide">${slideView(deck.slides[at], deck.theme, 720, `Current slide ${at + 1}`)}</section>
        <aside>
          <h2>Next slide</h2>
          ${at < count - 1 ? slideView(deck.slides[at + 1], deck.theme, 320, `Next slide ${at + 2}`) : html`<p class="muted">This is the last slide.</p>`}
          <h2>Speaker notes</h2>
          <p class="notes" aria-label="Speaker notes">${deck.slides[at]?.notes || 'No notes for this slide.'}</p>
        </aside>
      </div>`;
  }
}

customElements.define('slides-presenter', SlidesPresenter);
