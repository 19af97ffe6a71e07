import { BoardMoves, LitElement, appHref, appLink, css, errorText, html, kit, navigate, nothing, repeat, screenStyles } from '@wpk/ui';
import { JOB_STATUS, LIST_STYLES, candidatesOf, myKeys, readIfAllowed, type Application, type Candidate, type Job, type Pipeline, type Stage } from '../api.js';

/**
 * `/jobs/{job_id}`: the job's pipeline as a board, its stages as columns and its active
 * applications as cards. Each card's "Move to …" button moves the application to the next stage
 * (`PATCH /ats/applications/{id}/stage`); a move the server refuses (a stage that needs its
 * scorecards first, an application that is no longer active) is said on the card, and the card
 * stays where it was. A card may also be dragged to another column.
 */
export class AtsBoard extends LitElement {
  static override properties = { jobId: { attribute: 'job-id' }, job: { state: true }, pipeline: { state: true }, applications: { state: true }, candidates: { state: true }, error: { state: true }, refusals: { state: true }, moving: { state: true }, mayMove: { state: true } };
  declare jobId: string;
  declare job: Job | null;
  declare pipeline: Pipeline | null;
  declare applications: Application[] | null;
  declare candidates: Map<string, Candidate>;
  declare error: string | null;
  /** The server's refusal of the last move, by application id. */
  declare refusals: Record<string, string>;
  declare moving: string | null;
  /** Whether the member holds ats.applications.move (else no move is offered). */
  declare mayMove: boolean;
  private readonly moves = new BoardMoves(this);

  constructor() {
    super();
    this.jobId = '';
    this.job = null;
    this.pipeline = null;
    this.applications = null;
    this.candidates = new Map();
    this.error = null;
    this.refusals = {};
    this.moving = null;
    this.mayMove = false;
  }

  static override styles = [
    screenStyles,
    LIST_STYLES,
    css`
      h1 { margin: 0 0 var(--wpk-space-1); }
      .head { margin-bottom: var(--wpk-space-4); }
      .stages { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(12rem, 1fr); gap: var(--wpk-space-3); overflow-x: auto; padding-bottom: var(--wpk-space-2); }
      @media (max-width: 600px) { .stages { grid-auto-flow: row; grid-auto-columns: auto; } }
      .stage { background: var(--wpk-color-surface); border-radius: var(--wpk-radius-l); padding: var(--wpk-space-2); min-height: 8rem; border: 2px solid transparent; }
      .stage.drop { border-color: var(--wpk-color-brand); }
      .stage h2 { font-size: var(--wpk-font-size-m); margin: var(--wpk-space-1) var(--wpk-space-1) 0; }
      .stage .count { margin: 0 var(--wpk-space-1) var(--wpk-space-2); font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
      .stage ul { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--wpk-space-2); min-height: 3rem; }
      .card { background: var(--wpk-color-surface-raised); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-2) var(--wpk-space-3); box-shadow: var(--wpk-shadow-raised); }
      .card a { font-weight: var(--wpk-font-weight-bold); }
      .card .error { margin: var(--wpk-space-2) 0 0; font-size: var(--wpk-font-size-s); }
      button.move { font: inherit; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text); background: var(--wpk-color-bg); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-s); padding: var(--wpk-space-1) var(--wpk-space-2); cursor: pointer; }
      button.move:hover { border-color: var(--wpk-color-brand); }
      button.move:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
      .card .headline { margin: var(--wpk-space-1) 0; font-size: var(--wpk-font-size-s); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const { client } = kit();
      this.job = (await client.ats.getAtsJobsByJobId({ params: { job_id: this.jobId } })).data as Job;
      void kit().bridge.title(this.job.title);
      this.mayMove = (await myKeys()).has('ats.applications.move');
      this.pipeline = (await client.ats.getAtsPipelinesByPipelineId({ params: { pipeline_id: this.job.pipeline_id } })).data as Pipeline;
      await this.loadApplications();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async loadApplications(): Promise<void> {
    const applications = await readIfAllowed<Application[]>(() => kit().client.ats.getAtsApplications({ query: { job_id: this.jobId, status: 'active', per_page: 100 } }));
    if (!applications) {
      this.error = 'You may not see the applications of this job.';
      return;
    }
    const missing = applications.map((application) => application.candidate_id).filter((id) => !this.candidates.has(id));
    if (missing.length) this.candidates = new Map([...this.candidates, ...(await candidatesOf(missing))]);
    this.applications = applications;
  }

  private nameOf(application: Application): string {
    return this.candidates.get(application.candidate_id)?.name ?? 'Candidate';
  }

  /** Moves an application; on a refusal the card stays and says why. */
  private async move(application: Application, stage: Stage): Promise<void> {
    const name = this.nameOf(application);
    this.moving = application.id;
    const { [application.id]: _previous, ...others } = this.refusals;
    this.refusals = others;
    try {
      await kit().client.ats.patchAtsApplicationsByApplicationIdStage({ params: { application_id: application.id }, body: { stage_id: stage.id } });
      await this.loadApplications();
      this.moves.say(`${name} moved to ${stage.name}`);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(`[data-application="${application.id}"] a`)?.focus();
    } catch (error) {
      this.refusals = { ...this.refusals, [application.id]: `Not moved to ${stage.name}: ${errorText(error)}` };
    }
    this.moving = null;
  }

  private card(application: Application, next: Stage | undefined) {
    const name = this.nameOf(application);
    const candidate = this.candidates.get(application.candidate_id);
    const refusal = this.refusals[application.id];
    return html`<li>
      <article
        class="card"
        data-application=${application.id}
        aria-label=${name}
        draggable=${this.mayMove ? 'true' : 'false'}
        @dragstart=${this.moves.drag(application.id)}
      >
        <a href=${appHref(`/applications/${application.id}`)} @click=${(event: Event) => {
          event.preventDefault();
          void navigate(`/applications/${application.id}`);
        }}>${name}</a>
        ${candidate?.headline ? html`<p class="headline muted">${candidate.headline}</p>` : nothing}
        <div class="meta">
          <span>${application.days_in_stage} ${application.days_in_stage === 1 ? 'day' : 'days'} in stage</span>
          ${application.sla_overdue ? html`<span class="overdue">Overdue</span>` : nothing}
        </div>
        ${next && this.mayMove
          ? html`<div class="actions"><button type="button" class="move" ?disabled=${this.moving === application.id} @click=${() => this.move(application, next)}>Move<span class="wpk-visually-hidden"> ${name}</span> to ${next.name}</button></div>`
          : nothing}
        ${refusal ? html`<p class="error" role="alert">${refusal}</p>` : nothing}
      </article>
    </li>`;
  }

  private column(stage: Stage, index: number, stages: Stage[]) {
    const held = (this.applications ?? []).filter((application) => application.stage_id === stage.id);
    const headingId = `stage-${index}`;
    const drop = this.moves.column(stage.id, (id) => {
      const application = this.applications?.find((one) => one.id === id);
      if (application && this.mayMove && application.stage_id !== stage.id) void this.move(application, stage);
    });
    return html`<section class=${this.moves.over === stage.id ? 'stage drop' : 'stage'} aria-labelledby=${headingId} @dragover=${drop.dragover} @dragleave=${drop.dragleave} @drop=${drop.drop}>
      <h2 id=${headingId}>${stage.name}</h2>
      <p class="count">${held.length} ${held.length === 1 ? 'candidate' : 'candidates'}${stage.required_evaluations ? ` · ${stage.required_evaluations} scorecard${stage.required_evaluations === 1 ? '' : 's'} needed to move on` : ''}</p>
      <ul aria-labelledby=${headingId}>${repeat(held, (application) => application.id, (application) => this.card(application, stages[index + 1]))}</ul>
    </section>`;
  }

  protected override render() {
    if (this.error) return html`<p class="back">${appLink('/', '← Jobs')}</p><p class="error" role="alert">${this.error}</p>`;
    if (!this.job || !this.pipeline || !this.applications) return html`<wa-spinner label="Loading the pipeline"></wa-spinner>`;
    const stages = this.pipeline.stages;
    return html`<p class="back">${appLink('/', '← Jobs')}</p>
      <div class="head">
        <h1>${this.job.title}</h1>
        <div class="meta"><span class="badge">${JOB_STATUS[this.job.status] ?? this.job.status}</span>${this.job.location ? html`<span>${this.job.location}</span>` : nothing}<span>${this.pipeline.name} pipeline</span></div>
      </div>
      <div class="stages">${stages.map((stage, index) => this.column(stage, index, stages))}</div>
      ${this.moves.region()}`;
  }
}

customElements.define('ats-board', AtsBoard);
