import { LitElement, appLink, css, errorText, formatBytes, html, kit, nothing, screenStyles, toast } from '@wpk/ui';
import {
  APPLICATION_STATUS, INTERVIEW_STATUS, LIST_STYLES, OFFER_STATUS, RATINGS, RECOMMENDATIONS, SCORECARD_STATUS, SOURCE, myKeys, myMrn, readIfAllowed,
  type ApplicationDetail, type Candidate, type Evaluation, type Interview, type Job, type Offer, type Pipeline, type Stage,
} from '../api.js';

/** A `datetime-local` value (the device's time) as an ISO instant; '' when empty. */
const instantOf = (value: FormDataEntryValue | null): string => (value ? new Date(String(value)).toISOString() : '');
const textOf = (data: FormData, name: string): string => String(data.get(name) ?? '').trim();

/** The application's moves (the server's state machine decides; these are the ones to offer from each status). */
const DECISIONS: Array<{ move: string; label: string; from: string[] }> = [
  { move: 'hire', label: 'Hire', from: ['active'] },
  { move: 'hold', label: 'Put on hold', from: ['active'] },
  { move: 'reject', label: 'Reject', from: ['active', 'on_hold'] },
  { move: 'withdraw', label: 'Mark as withdrawn', from: ['active', 'on_hold'] },
  { move: 'reopen', label: 'Reopen', from: ['rejected', 'withdrawn', 'on_hold'] },
];
/** An offer's next statuses from each status, with the button's words. */
const OFFER_MOVES: Record<string, Array<[string, string]>> = {
  draft: [['approval', 'Send for approval'], ['rescinded', 'Rescind']],
  approval: [['approved', 'Approve'], ['draft', 'Back to draft'], ['rescinded', 'Rescind']],
  approved: [['sent', 'Mark as sent'], ['draft', 'Back to draft'], ['rescinded', 'Rescind']],
  sent: [['rescinded', 'Rescind']],
};

/**
 * `/applications/{application_id}`: one application with its candidate's profile and documents,
 * the answers to the screening questions, its interviews (schedule one, send the candidate a
 * self-schedule link), its scorecards (the member's own requested one is filled and submitted
 * here, one rating per criterion of its stage) and its offers (draft one). What the member's keys
 * do not let them read is left out; what the server refuses is said next to the form.
 */
export class AtsApplication extends LitElement {
  static override properties = {
    applicationId: { attribute: 'application-id' }, detail: { state: true }, candidate: { state: true }, job: { state: true }, stages: { state: true },
    error: { state: true }, formErrors: { state: true }, selfLinks: { state: true }, busy: { state: true }, keys: { state: true },
  };
  declare applicationId: string;
  declare detail: ApplicationDetail | null;
  declare candidate: Candidate | null;
  declare job: Job | null;
  declare stages: Stage[];
  declare error: string | null;
  /** The server's refusal, by form. */
  declare formErrors: Record<string, string>;
  /** The self-schedule page minted for an interview, by interview id. */
  declare selfLinks: Record<string, string>;
  declare busy: string | null;
  /** The member's keys in the app: the forms shown are the ones they allow. */
  declare keys: Set<string>;

  constructor() {
    super();
    this.applicationId = '';
    this.detail = null;
    this.candidate = null;
    this.job = null;
    this.stages = [];
    this.error = null;
    this.formErrors = {};
    this.selfLinks = {};
    this.busy = null;
    this.keys = new Set();
  }

  static override styles = [
    screenStyles,
    LIST_STYLES,
    css`
      .layout { display: grid; gap: var(--wpk-space-5); }
      @media (min-width: 900px) { .layout { grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); align-items: start; } }
      section { min-width: 0; }
      h2 { margin-top: var(--wpk-space-4); }
      fieldset { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-2) var(--wpk-space-3); min-width: 0; }
      legend { font-weight: var(--wpk-font-weight-bold); }
      .link { overflow-wrap: anywhere; }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const { client } = kit();
      const detail = (await client.ats.getAtsApplicationsByApplicationId({ params: { application_id: this.applicationId } })).data as ApplicationDetail;
      this.keys = await myKeys();
      const [candidate, job] = await Promise.all([
        readIfAllowed<Candidate>(() => client.ats.getAtsCandidatesByCandidateId({ params: { candidate_id: detail.candidate_id } })),
        readIfAllowed<Job>(() => client.ats.getAtsJobsByJobId({ params: { job_id: detail.job_id } })),
      ]);
      const pipeline = job ? await readIfAllowed<Pipeline>(() => client.ats.getAtsPipelinesByPipelineId({ params: { pipeline_id: job.pipeline_id } })) : null;
      [this.detail, this.candidate, this.job, this.stages] = [detail, candidate, job, pipeline?.stages ?? []];
      void kit().bridge.title(candidate ? `${candidate.name}${job ? ` · ${job.title}` : ''}` : 'Application');
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** Sends a form's request; its refusal shows in the form, its success reloads the page's data. */
  private async send(form: string, request: () => Promise<unknown>, done: string): Promise<boolean> {
    const { [form]: _previous, ...others } = this.formErrors;
    this.formErrors = others;
    this.busy = form;
    try {
      await request();
      await this.load();
      toast(done, 'success');
      return true;
    } catch (error) {
      this.formErrors = { ...this.formErrors, [form]: errorText(error) };
      return false;
    } finally {
      this.busy = null;
    }
  }

  private refusal(form: string) {
    return this.formErrors[form] ? html`<p class="error" role="alert">${this.formErrors[form]}</p>` : nothing;
  }

  private stageName(id: string | null): string {
    return this.stages.find((stage) => stage.id === id)?.name ?? '';
  }

  private profile(candidate: Candidate) {
    const links = Object.entries(candidate.links ?? {}).filter(([, url]) => url);
    return html`<section aria-labelledby="profile">
      <h2 id="profile">Profile</h2>
      <dl>
        <dt>E-mail</dt><dd>${candidate.email}</dd>
        ${candidate.phone ? html`<dt>Phone</dt><dd>${candidate.phone}</dd>` : nothing}
        ${candidate.location ? html`<dt>Location</dt><dd>${candidate.location}</dd>` : nothing}
        ${candidate.headline ? html`<dt>Headline</dt><dd>${candidate.headline}</dd>` : nothing}
        ${candidate.source ? html`<dt>Source</dt><dd>${SOURCE[candidate.source] ?? candidate.source}${candidate.source_detail ? ` (${candidate.source_detail})` : ''}</dd>` : nothing}
        ${candidate.tags.length ? html`<dt>Tags</dt><dd>${candidate.tags.map((tag) => html`<span class="badge">${tag}</span> `)}</dd>` : nothing}
        ${links.map(([kind, url]) => html`<dt>${kind[0].toUpperCase()}${kind.slice(1)}</dt><dd class="link">${url}</dd>`)}
      </dl>
      <h2 id="documents">Documents</h2>
      ${candidate.resume.length
        ? html`<ul class="cards" aria-labelledby="documents">${candidate.resume.map((file) => html`<li>${file.filename} <span class="muted">· ${formatBytes(file.size_bytes, kit().locale)}</span></li>`)}</ul>`
        : html`<p class="muted">No resume on file.</p>`}
    </section>`;
  }

  private answers(detail: ApplicationDetail) {
    const questions = this.job?.screening_questions ?? [];
    const entries = Object.entries(detail.screening_answers ?? {});
    if (!entries.length) return nothing;
    return html`<h2 id="answers">Screening answers</h2>
      <dl aria-labelledby="answers">${entries.map(([key, value]) => html`<dt>${questions.find((question) => question.key === key)?.text ?? key}</dt><dd>${Array.isArray(value) ? value.join(', ') : String(value)}</dd>`)}</dl>`;
  }

  private interviews(detail: ApplicationDetail) {
    return html`<section aria-labelledby="interviews">
      <h2 id="interviews">Interviews</h2>
      ${detail.interviews.length
        ? html`<ul class="cards" aria-labelledby="interviews">${detail.interviews.map((interview) => this.interview(interview))}</ul>`
        : html`<p class="muted">No interview yet.</p>`}
      ${this.keys.has('ats.interviews.schedule') ? this.scheduleForm() : nothing}
    </section>`;
  }

  private scheduleForm() {
    return html`<form class="fields" aria-label="Schedule an interview" @submit=${(event: SubmitEvent) => this.schedule(event)}>
        <label for="interview-title">Interview</label>
        <input id="interview-title" name="title" maxlength="200" />
        <label for="interview-at">When (leave empty to let the candidate pick)</label>
        <input id="interview-at" name="scheduled_at" type="datetime-local" />
        <label for="interview-minutes">Minutes</label>
        <input id="interview-minutes" name="duration_minutes" type="number" min="5" max="600" value="45" />
        <label for="interview-where">Where</label>
        <input id="interview-where" name="location" maxlength="500" />
        ${this.refusal('interview')}
        <button type="submit" ?disabled=${this.busy === 'interview'}>Schedule the interview</button>
      </form>`;
  }

  private interview(interview: Interview) {
    const link = this.selfLinks[interview.id];
    const form = `self-${interview.id}`;
    return html`<li>
      <strong class=${interview.status === 'cancelled' ? 'cancelled' : ''}>${interview.title}</strong>
      <div class="meta">
        <span class="badge">${INTERVIEW_STATUS[interview.status] ?? interview.status}</span>
        ${interview.scheduled_at ? html`<wpk-date value=${interview.scheduled_at} format="datetime"></wpk-date>` : nothing}
        <span>${interview.duration_minutes} min</span>
        ${interview.location ? html`<span>${interview.location}</span>` : nothing}
        ${interview.self_schedule_live ? html`<span>Self-schedule link sent</span>` : nothing}
      </div>
      ${interview.status === 'requested' && this.keys.has('ats.interviews.schedule')
        ? html`<form class="fields" aria-label=${`Self-schedule link for ${interview.title}`} @submit=${(event: SubmitEvent) => this.selfSchedule(event, interview)}>
            <label for=${`slot-1-${interview.id}`}>First slot offered</label>
            <input id=${`slot-1-${interview.id}`} name="slot_1" type="datetime-local" required />
            <label for=${`slot-2-${interview.id}`}>Second slot (optional)</label>
            <input id=${`slot-2-${interview.id}`} name="slot_2" type="datetime-local" />
            ${this.refusal(form)}
            <button type="submit" ?disabled=${this.busy === form}>Make a self-schedule link</button>
          </form>`
        : nothing}
      ${link ? html`<p>The candidate's page: <span class="link">${link}</span></p>` : nothing}
    </li>`;
  }

  private async schedule(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const [title, at, minutes, location] = [textOf(data, 'title'), instantOf(data.get('scheduled_at')), textOf(data, 'duration_minutes'), textOf(data, 'location')];
    const body = { ...(title ? { title } : {}), ...(at ? { scheduled_at: at } : {}), ...(minutes ? { duration_minutes: Number(minutes) } : {}), ...(location ? { location } : {}) };
    if (await this.send('interview', () => kit().client.ats.postAtsApplicationsByApplicationIdInterviews({ params: { application_id: this.applicationId }, body }), 'Interview added')) form.reset();
  }

  private async selfSchedule(event: SubmitEvent, interview: Interview): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const [first, second] = [instantOf(data.get('slot_1')), instantOf(data.get('slot_2'))];
    let url = '';
    const made = await this.send(`self-${interview.id}`, async () => {
      const answer = await kit().client.ats.postAtsInterviewsByInterviewIdSelfSchedule({ params: { interview_id: interview.id }, body: { slot_1: first, ...(second ? { slot_2: second } : {}) } });
      url = (answer.data as { url: string }).url;
    }, 'Self-schedule link made');
    if (made) this.selfLinks = { ...this.selfLinks, [interview.id]: url };
  }

  private scorecards(detail: ApplicationDetail) {
    return html`<section aria-labelledby="scorecards">
      <h2 id="scorecards">Scorecards</h2>
      ${detail.evaluations.length
        ? html`<ul class="cards" aria-labelledby="scorecards">${detail.evaluations.map((evaluation) => this.scorecard(evaluation))}</ul>`
        : html`<p class="muted">No scorecard asked for yet.</p>`}
      ${this.keys.has('ats.evaluations.create')
        ? html`${this.refusal('ask-scorecard')}<button type="button" ?disabled=${this.busy === 'ask-scorecard'} @click=${() => this.askScorecard(detail)}>Ask for a scorecard</button>`
        : nothing}
    </section>`;
  }

  private scorecard(evaluation: Evaluation) {
    const mine = evaluation.evaluator_mrn === myMrn();
    const stage = this.stages.find((one) => one.id === evaluation.stage_id);
    const recommendation = RECOMMENDATIONS.find(([value]) => value === evaluation.recommendation)?.[1];
    return html`<li>
      <strong>${mine ? 'Your scorecard' : 'Scorecard'}${stage ? ` · ${stage.name}` : ''}</strong>
      <div class="meta">
        <span class="badge">${SCORECARD_STATUS[evaluation.status] ?? evaluation.status}</span>
        ${mine ? nothing : html`<wpk-mrn-chip mrn=${evaluation.evaluator_mrn}></wpk-mrn-chip>`}
        ${recommendation ? html`<span>Recommends: ${recommendation}</span>` : nothing}
      </div>
      ${evaluation.status === 'submitted' && evaluation.ratings.length
        ? html`<dl>${evaluation.ratings.map((rating) => html`<dt>${stage?.criteria.find((criterion) => criterion.key === rating.key)?.label ?? rating.key}</dt><dd>${rating.rating} of 4</dd>`)}</dl>`
        : nothing}
      ${evaluation.notes ? html`<p>${evaluation.notes}</p>` : nothing}
      ${mine && evaluation.status === 'requested' ? this.scorecardForm(evaluation, stage) : nothing}
    </li>`;
  }

  private scorecardForm(evaluation: Evaluation, stage: Stage | undefined) {
    const form = `scorecard-${evaluation.id}`;
    return html`<form class="fields" aria-label="Your scorecard" @submit=${(event: SubmitEvent) => this.submitScorecard(event, evaluation, stage)}>
      ${(stage?.criteria ?? []).map((criterion) => html`<label for=${`rating-${criterion.key}`}>${criterion.label}</label>
        <select id=${`rating-${criterion.key}`} name=${`rating:${criterion.key}`} required>
          <option value="">Rate…</option>
          ${RATINGS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
        </select>`)}
      <label for="recommendation">Recommendation</label>
      <select id="recommendation" name="recommendation" required>
        <option value="">Choose…</option>
        ${RECOMMENDATIONS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
      </select>
      <label for="scorecard-notes">Notes</label>
      <textarea id="scorecard-notes" name="notes" rows="3" maxlength="20000"></textarea>
      ${this.refusal(form)}
      <button type="submit" ?disabled=${this.busy === form}>Submit scorecard</button>
    </form>`;
  }

  private async submitScorecard(event: SubmitEvent, evaluation: Evaluation, stage: Stage | undefined): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const ratings = (stage?.criteria ?? []).map((criterion) => ({ key: criterion.key, rating: Number(data.get(`rating:${criterion.key}`)) }));
    const notes = textOf(data, 'notes');
    const body = { ratings, recommendation: textOf(data, 'recommendation') as 'yes', ...(notes ? { notes } : {}) };
    await this.send(`scorecard-${evaluation.id}`, () => kit().client.ats.postAtsEvaluationsByEvaluationIdSubmission({ params: { evaluation_id: evaluation.id }, body }), 'Scorecard submitted');
  }

  private offers(detail: ApplicationDetail) {
    return html`<section aria-labelledby="offers">
      <h2 id="offers">Offers</h2>
      ${detail.offers.length
        ? html`<ul class="cards" aria-labelledby="offers">${detail.offers.map((offer) => html`<li>
            <strong>${offer.base ? `${offer.base} ${offer.currency ?? ''}${offer.period ? ` a ${offer.period}` : ''}` : 'Offer'}</strong>
            <div class="meta"><span class="badge">${OFFER_STATUS[offer.status] ?? offer.status}</span>${offer.start_date ? html`<span>Starts <wpk-date value=${offer.start_date}></wpk-date></span>` : nothing}</div>
            ${this.offerMoves(offer)}
          </li>`)}</ul>`
        : html`<p class="muted">No offer yet.</p>`}
      ${this.keys.has('ats.offers.create') ? this.offerForm() : nothing}
    </section>`;
  }

  private offerForm() {
    return html`<form class="fields" aria-label="Make an offer" @submit=${(event: SubmitEvent) => this.offer(event)}>
        <label for="offer-base">Base salary</label>
        <input id="offer-base" name="base" inputmode="decimal" placeholder="0.00" required />
        <label for="offer-currency">Currency</label>
        <input id="offer-currency" name="currency" maxlength="3" value=${this.job?.salary_currency ?? ''} required />
        <label for="offer-period">Per</label>
        <select id="offer-period" name="period"><option value="year">Year</option><option value="month">Month</option><option value="week">Week</option><option value="hour">Hour</option></select>
        <label for="offer-start">Start date</label>
        <input id="offer-start" name="start_date" type="date" />
        ${this.refusal('offer')}
        <button type="submit" ?disabled=${this.busy === 'offer'}>Make the offer</button>
      </form>`;
  }

  private async offer(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const start = textOf(data, 'start_date');
    const body = { package: { base: textOf(data, 'base'), currency: textOf(data, 'currency').toUpperCase(), period: textOf(data, 'period') as 'year' }, ...(start ? { start_date: start } : {}) };
    if (await this.send('offer', () => kit().client.ats.postAtsApplicationsByApplicationIdOffers({ params: { application_id: this.applicationId }, body }), 'Offer drafted')) form.reset();
  }

  private decision(detail: ApplicationDetail) {
    if (!this.keys.has('ats.applications.edit')) return nothing;
    const moves = DECISIONS.filter((decision) => decision.from.includes(detail.status));
    if (!moves.length) return nothing;
    return html`<form class="fields" aria-label="Decision" @submit=${(event: SubmitEvent) => this.decide(event)}>
        ${moves.some((decision) => decision.move === 'reject')
          ? html`<label for="rejection-reason">Reason for a rejection (optional, kept with the application)</label>
              <textarea id="rejection-reason" name="rejection_reason" rows="2" maxlength="1000"></textarea>`
          : nothing}
        ${this.refusal('decision')}
        <div class="actions">${moves.map((decision) => html`<button type="submit" name="move" value=${decision.move} ?disabled=${this.busy === 'decision'}>${decision.label}</button>`)}</div>
      </form>`;
  }

  private async decide(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const move = (event.submitter as HTMLButtonElement | null)?.value ?? '';
    const reason = textOf(new FormData(event.target as HTMLFormElement), 'rejection_reason');
    const label = DECISIONS.find((decision) => decision.move === move)?.label ?? move;
    const body = { status: move as 'hire', ...(move === 'reject' && reason ? { rejection_reason: reason } : {}) };
    await this.send('decision', () => kit().client.ats.patchAtsApplicationsByApplicationIdStatus({ params: { application_id: this.applicationId }, body }), `${label}: done`);
  }

  private async askScorecard(detail: ApplicationDetail): Promise<void> {
    const [chosen] = await kit().bridge.pickMembers({ title: 'Whose scorecard?' });
    if (!chosen) return;
    const body = { evaluator_mrn: `mrn:account:member:${chosen.id}`, ...(detail.stage_id ? { stage_id: detail.stage_id } : {}) };
    await this.send('ask-scorecard', () => kit().client.ats.postAtsApplicationsByApplicationIdEvaluations({ params: { application_id: this.applicationId }, body }), `Scorecard asked of ${chosen.name}`);
  }

  private offerMoves(offer: Offer) {
    if (!this.keys.has('ats.offers.edit')) return nothing;
    const form = `offer-${offer.id}`;
    const moves = OFFER_MOVES[offer.status] ?? [];
    if (!moves.length) return nothing;
    return html`<div class="actions" role="group" aria-label="Move this offer">
        ${moves.map(([status, label]) => html`<button type="button" ?disabled=${this.busy === form}
          @click=${() => this.send(form, () => kit().client.ats.patchAtsOffersByOfferIdStatus({ params: { offer_id: offer.id }, body: { status: status as 'sent' } }), `Offer: ${OFFER_STATUS[status] ?? status}`)}>${label}</button>`)}
      </div>
      ${this.refusal(form)}`;
  }

  protected override render() {
    if (this.error) return html`<p class="back">${appLink('/', '← Jobs')}</p><p class="error" role="alert">${this.error}</p>`;
    const detail = this.detail;
    if (!detail) return html`<wa-spinner label="Loading the application"></wa-spinner>`;
    return html`<p class="back">${this.job ? appLink(`/jobs/${this.job.id}`, `← ${this.job.title}`) : appLink('/', '← Jobs')}</p>
      <h1>${this.candidate?.name ?? 'Application'}</h1>
      <div class="meta">
        ${this.job ? html`<span>${this.job.title}</span>` : nothing}
        <span class="badge">${detail.stage?.name ?? this.stageName(detail.stage_id)}</span>
        <span>${APPLICATION_STATUS[detail.status] ?? detail.status}</span>
        <span>${detail.days_in_stage} ${detail.days_in_stage === 1 ? 'day' : 'days'} in stage</span>
      </div>
      ${detail.rejection_reason ? html`<p>Rejected: ${detail.rejection_reason}</p>` : nothing}
      ${this.decision(detail)}
      <div class="layout">
        <div>${this.candidate ? this.profile(this.candidate) : nothing}${this.answers(detail)}</div>
        <div>${this.scorecards(detail)}${this.interviews(detail)}${this.offers(detail)}</div>
      </div>`;
  }
}

customElements.define('ats-application', AtsApplication);
