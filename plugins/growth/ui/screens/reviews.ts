import { LitElement, choiceField, errorText, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema, type WpkSchemaForm } from '@wpk/ui';
import { CARD_STYLES, STEP_LABELS, allCycles, allPeople, reviewsOf, scoreText, type Cycle, type Person, type Review } from '../api.js';

/** The part the caller writes in a review at this step, as the server decides it (it refuses any other). */
function partOf(review: Review, mine: boolean): string | null {
  if (mine) return review.cycle_status === 'self_review' ? 'self review' : null;
  return ({ peer_review: 'peer review', manager_review: 'manager review', calibration: 'calibrated score' } as Record<string, string>)[review.cycle_status] ?? null;
}

const OPEN_FOR_NOMINATIONS = new Set(['draft', 'self_review']);

/**
 * `/reviews`: the reviews the member may see, cycle by cycle: their own (to write the self review,
 * nominate peers, and read whole once released), their reports' (to write the manager review and
 * approve or decline the peers nominated) and, during peer review, those they write as a peer.
 */
export class GrowthReviews extends LitElement {
  static override properties = { cycles: { state: true }, reviews: { state: true }, people: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare cycles: Cycle[];
  declare reviews: Record<string, Review[]>;
  declare people: Person[];
  declare error: string | null;

  constructor() {
    super();
    this.cycles = [];
    this.reviews = {};
    this.people = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Reviews');
    void this.load();
  }

  private get me(): Person | undefined {
    return this.people.find((person) => person.member_id === kit().member.id);
  }

  private async load(): Promise<void> {
    try {
      const [cycles, people] = await Promise.all([allCycles(), allPeople()]);
      const open = cycles.filter((cycle) => cycle.status !== 'draft');
      const reviews: Record<string, Review[]> = {};
      for (const cycle of open) reviews[cycle.id] = await reviewsOf(cycle.id);
      this.people = people;
      this.cycles = open;
      this.reviews = reviews;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private writeSchema(): FormSchema {
    return {
      required: ['score'],
      properties: {
        score: { type: 'number', title: 'Score (1 to 5)', minimum: 1, maximum: 5 },
        comment: { type: 'string', title: 'Comment', 'x-widget': 'textarea', maxLength: 10000 },
      },
    };
  }

  private async write(review: Review, part: string, event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const { score, comment } = event.detail as { score?: number | string; comment?: string };
    try {
      await kit().client.growth.putGrowthReviewsByReviewId({ params: { review_id: review.id }, body: { score: Number(score), ...(comment ? { comment } : {}) } });
      toast(`Saved: the ${part} of ${review.worker_name ?? 'the worker'}`, 'success');
      form.submitting = false;
      await this.load();
    } catch (error) {
      form.fail(error);
    }
  }

  private nominateSchema(review: Review): FormSchema {
    const taken = new Set(review.peers.map((peer) => peer.peer_id));
    const choices = this.people.filter((person) => person.id !== review.worker_id && !taken.has(person.id));
    return { required: ['peer_id'], properties: { peer_id: choiceField('Peer', choices) } };
  }

  private nominate(review: Review, event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        await kit().client.growth.postGrowthReviewsByReviewIdPeers({ params: { review_id: review.id }, body: { peer_id: String(values.peer_id) } });
        toast('Peer nominated', 'success');
      },
      () => this.load(),
    );
  }

  private async decide(review: Review, nominationId: string, status: 'approved' | 'declined'): Promise<void> {
    try {
      await kit().client.growth.patchGrowthReviewsByReviewIdPeersByNominationId({ params: { review_id: review.id, nomination_id: nominationId }, body: { status } });
      toast(status === 'approved' ? 'Nomination approved' : 'Nomination declined', 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private card(review: Review) {
    const mine = review.worker_id === this.me?.id;
    const name = review.worker_name ?? review.worker_id;
    const part = partOf(review, mine);
    const released = review.cycle_status === 'released' || review.cycle_status === 'closed';
    return html`<li aria-label="${mine ? 'Your review' : `Review of ${name}`}">
      <strong>${mine ? 'Your review' : name}</strong> <span class="muted">${STEP_LABELS[review.cycle_status]}</span>
      <dl>
        <dt>Self</dt><dd>${scoreText(review.self_score)}${review.self_comment ? html` · ${review.self_comment}` : ''}</dd>
        ${!mine || released ? html`<dt>Manager</dt><dd>${scoreText(review.manager_score)}${review.manager_comment ? html` · ${review.manager_comment}` : ''}</dd><dt>Final score</dt><dd>${scoreText(review.final_score)}</dd>` : ''}
      </dl>
      ${review.peers.length
        ? html`<ul aria-label="Peers of ${name}">${review.peers.map((peer) => html`<li>${peer.peer_name ?? peer.peer_id} · ${peer.status}${peer.score !== null ? html` · ${scoreText(peer.score)}` : ''}
            ${!mine && peer.status === 'proposed' && OPEN_FOR_NOMINATIONS.has(review.cycle_status)
              ? html`<wa-button size="small" @click=${() => this.decide(review, peer.id, 'approved')}>Approve ${peer.peer_name ?? 'peer'}</wa-button> <wa-button size="small" appearance="outlined" @click=${() => this.decide(review, peer.id, 'declined')}>Decline ${peer.peer_name ?? 'peer'}</wa-button>`
              : ''}</li>`)}</ul>`
        : ''}
      ${part
        ? html`<h3>Write the ${part}</h3><wpk-schema-form .schema=${this.writeSchema()} .value=${{}} submit-label="Save the ${part}" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.write(review, part, event)}></wpk-schema-form>`
        : ''}
      ${OPEN_FOR_NOMINATIONS.has(review.cycle_status) && (mine || review.manager_id === this.me?.id)
        ? html`<h3>Nominate a peer</h3><wpk-schema-form .schema=${this.nominateSchema(review)} .value=${{}} submit-label="Nominate a peer" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.nominate(review, event)}></wpk-schema-form>`
        : ''}
    </li>`;
  }

  protected override render() {
    return html`<h1>Reviews</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${this.cycles.length ? '' : html`<p class="muted">No review cycle is open.</p>`}
      ${this.cycles.map((cycle) => html`<section aria-label="${cycle.name}">
        <h2>${cycle.name} <span class="muted">· ${STEP_LABELS[cycle.status]}</span></h2>
        ${(this.reviews[cycle.id] ?? []).length
          ? html`<ul class="cards" aria-label="Reviews in ${cycle.name}">${(this.reviews[cycle.id] ?? []).map((review) => this.card(review))}</ul>`
          : html`<p class="muted">No review of this cycle for you.</p>`}
      </section>`)}`;
  }
}

customElements.define('growth-reviews', GrowthReviews);
