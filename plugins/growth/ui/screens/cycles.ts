import { LitElement, css, errorText, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { STEP_LABELS, allCycles, nextStep, reviewsOf, scoreText, type Cycle, type Review } from '../api.js';

/** `/cycles`: the review cycles, each moved one step at a time to release; the chosen cycle's reviews and scores; a form to start one. */
export class GrowthCycles extends LitElement {
  static override properties = { cycles: { state: true }, chosen: { state: true }, reviews: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`ul { list-style: none; padding: 0; } li { padding: var(--wpk-space-2) 0; display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; } table { border-collapse: collapse; width: 100%; } th, td { text-align: start; padding: var(--wpk-space-1); border-bottom: 1px solid var(--wpk-color-border); } .muted { color: var(--wpk-color-text-muted); }`];
  declare cycles: Cycle[];
  declare chosen: string | null;
  declare reviews: Review[];
  declare error: string | null;

  constructor() {
    super();
    this.cycles = [];
    this.chosen = null;
    this.reviews = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Review cycles');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.cycles = await allCycles();
      if (this.chosen) this.reviews = await reviewsOf(this.chosen);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async choose(cycle: Cycle): Promise<void> {
    this.chosen = cycle.id;
    await this.load();
  }

  private async advance(cycle: Cycle, to: string): Promise<void> {
    try {
      await kit().client.growth.patchGrowthCyclesByCycleId({ params: { cycle_id: cycle.id }, body: { status: to as never } });
      toast(`${cycle.name}: ${STEP_LABELS[to]}`, 'success');
      this.chosen = cycle.id;
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private schema(): FormSchema {
    return {
      required: ['name'],
      properties: {
        name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
      },
    };
  }

  private add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        const created = (await kit().client.growth.postGrowthCycles({ body: values as never })).data as Cycle;
        toast(`${created.name} started in draft`, 'success');
        this.chosen = created.id;
      },
      () => this.load(),
    );
  }

  private reviewTable() {
    const cycle = this.cycles.find((candidate) => candidate.id === this.chosen);
    if (!cycle) return '';
    return html`<h2>Reviews of ${cycle.name}</h2>
      ${this.reviews.length
        ? html`<table aria-label="Reviews">
            <thead><tr><th scope="col">Worker</th><th scope="col">Self</th><th scope="col">Manager</th><th scope="col">Final score</th></tr></thead>
            <tbody>${this.reviews.map((review) => html`<tr><td>${review.worker_name ?? review.worker_id}</td><td>${scoreText(review.self_score)}</td><td>${scoreText(review.manager_score)}</td><td>${scoreText(review.final_score)}</td></tr>`)}</tbody>
          </table>`
        : html`<p class="muted">No review to show: the reviews are made when the cycle opens.</p>`}`;
  }

  protected override render() {
    return html`<h1>Review cycles</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <ul aria-label="Review cycles">
        ${this.cycles.map((cycle) => {
          const next = nextStep(cycle.status);
          return html`<li>
            <wa-button size="small" appearance="plain" @click=${() => this.choose(cycle)}>${cycle.name}</wa-button>
            <span>${STEP_LABELS[cycle.status]}</span>
            <span class="muted">self ${cycle.weights.self}% · peer ${cycle.weights.peer}% · manager ${cycle.weights.manager}%</span>
            ${next ? html`<wa-button size="small" @click=${() => this.advance(cycle, next)}>Move ${cycle.name} to ${STEP_LABELS[next]}</wa-button>` : ''}
          </li>`;
        })}
      </ul>
      ${this.reviewTable()}
      <h2>New cycle</h2>
      <wpk-schema-form .schema=${this.schema()} .value=${{}} submit-label="Start cycle" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>`;
  }
}

customElements.define('growth-cycles', GrowthCycles);
