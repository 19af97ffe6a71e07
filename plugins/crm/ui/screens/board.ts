import { BoardMoves, LitElement, appHref, css, errorText, html, kit, navigate, nothing, repeat, sharedStyles } from '@wpk/ui';
import { moneyText, type Board, type Deal, type Pipeline } from '../api.js';

type BoardStage = Board['stages'][number];

/**
 * `/`: a pipeline's board, its stages as columns and its open deals as cards. A deal moves to
 * another stage by drag and drop, or from the keyboard: focus its card and press Alt+→ / Alt+←,
 * or pick the stage in its "Stage" list. Each move is `PATCH /crm/deals/{id}/stage`.
 */
export class CrmBoard extends LitElement {
  static override properties = { pipelines: { state: true }, pipelineId: { state: true }, board: { state: true }, error: { state: true }, loaded: { state: true } };
  declare pipelines: Pipeline[];
  declare pipelineId: string;
  declare board: Board | null;
  declare error: string | null;
  declare loaded: boolean;
  private readonly moves = new BoardMoves(this);

  constructor() {
    super();
    this.pipelines = [];
    this.pipelineId = '';
    this.board = null;
    this.error = null;
    this.loaded = false;
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-3); }
      .toolbar { display: flex; flex-wrap: wrap; gap: var(--wpk-space-3); align-items: end; margin-bottom: var(--wpk-space-4); }
      form.add { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; flex: 1 1 20rem; }
      form.add wa-input { flex: 1 1 10rem; min-width: 0; }
      .stages { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(15rem, 1fr); gap: var(--wpk-space-3); overflow-x: auto; padding-bottom: var(--wpk-space-2); }
      @media (max-width: 600px) { .stages { grid-auto-flow: row; grid-auto-columns: auto; } }
      .stage { background: var(--wpk-color-surface); border-radius: var(--wpk-radius-l); padding: var(--wpk-space-2); min-height: 8rem; border: 2px solid transparent; }
      .stage.drop { border-color: var(--wpk-color-brand); }
      .stage h2 { font-size: var(--wpk-font-size-m); margin: var(--wpk-space-1) var(--wpk-space-1) 0; }
      .stage .sum { margin: 0 var(--wpk-space-1) var(--wpk-space-2); font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
      .stage ul { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--wpk-space-2); min-height: 3rem; }
      .card { background: var(--wpk-color-surface-raised); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-2) var(--wpk-space-3); box-shadow: var(--wpk-shadow-raised); cursor: grab; }
      .card:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
      .title { display: block; margin-bottom: var(--wpk-space-1); color: var(--wpk-color-link); font-weight: var(--wpk-font-weight-bold); }
      .meta { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
      .overdue { color: var(--wpk-color-danger); font-weight: var(--wpk-font-weight-bold); }
      select { font: inherit; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text); background: var(--wpk-color-bg); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-s); max-width: 100%; }
      label.move { display: inline-flex; gap: var(--wpk-space-1); align-items: center; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Pipeline');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.pipelines = (await kit().client.crm.getCrmPipelines({ query: { per_page: 100 } })).data as Pipeline[];
      if (!this.pipelineId || !this.pipelines.some((pipeline) => pipeline.id === this.pipelineId)) this.pipelineId = this.pipelines[0]?.id ?? '';
      await this.loadBoard();
    } catch (error) {
      this.error = errorText(error);
    }
    this.loaded = true;
  }

  private async loadBoard(): Promise<void> {
    this.board = this.pipelineId ? ((await kit().client.crm.getCrmPipelinesByPipelineIdBoard({ params: { pipeline_id: this.pipelineId } })).data as Board) : null;
  }

  private async starter(): Promise<void> {
    try {
      await kit().client.crm.postCrmPipelines({ body: { name: 'Sales', stages: [{ name: 'Qualified', probability: 20, sla_days: 7 }, { name: 'Proposal', probability: 50, sla_days: 14 }, { name: 'Negotiation', probability: 80, sla_days: 14 }] } });
      await this.load();
    } catch (error) {
      void kit().bridge.toast(errorText(error), 'danger');
    }
  }

  private async add(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const [titleInput, amountInput] = [...form.querySelectorAll('wa-input')];
    const title = String(titleInput.value ?? '').trim();
    const amount = String(amountInput.value ?? '').trim();
    if (!title) return;
    try {
      const deal = (await kit().client.crm.postCrmDeals({ body: { title, pipeline_id: this.pipelineId, ...(amount ? { amount } : {}) } })).data as Deal;
      titleInput.value = '';
      amountInput.value = '';
      await this.loadBoard();
      this.moves.say(`${deal.title} added to ${deal.stage_name}`);
    } catch (error) {
      void kit().bridge.toast(errorText(error), 'danger');
    }
  }

  /** Moves a deal to a stage; the board shows it at once, and undoes it when refused. */
  private async move(deal: Deal, stageId: string): Promise<void> {
    if (!this.board || deal.stage_id === stageId) return;
    const before = this.board;
    const target = before.stages.find((stage) => stage.id === stageId);
    if (!target) return;
    this.board = { ...before, stages: before.stages.map((stage) => ({ ...stage, deals: stage.id === stageId ? [...stage.deals, { ...deal, stage_id: stageId, stage_name: stage.name }] : stage.deals.filter((held) => held.id !== deal.id) })) };
    try {
      await kit().client.crm.patchCrmDealsByDealIdStage({ params: { deal_id: deal.id }, body: { stage_id: stageId } });
      this.moves.say(`${deal.title} moved to ${target.name}`);
      await this.loadBoard();
    } catch (error) {
      this.board = before;
      void kit().bridge.toast(errorText(error), 'danger');
    }
  }

  private key(event: KeyboardEvent, deal: Deal): void {
    const target = this.board ? this.moves.step(event, this.board.stages.map((stage) => stage.id), deal.stage_id) : null;
    if (!target) return;
    void this.move(deal, target).then(() => this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-deal="${deal.id}"]`)?.focus()));
  }

  private stage(stage: BoardStage, index: number) {
    const headingId = `stage-${index}`;
    const totals = stage.totals.map((sum) => moneyText(sum.amount, sum.currency)).join(' · ');
    const drop = this.moves.column(stage.id, (id) => {
      const deal = this.board?.stages.flatMap((held) => held.deals).find((held) => held.id === id);
      if (deal) void this.move(deal, stage.id);
    });
    return html`<section class=${this.moves.over === stage.id ? 'stage drop' : 'stage'} aria-labelledby=${headingId} @dragover=${drop.dragover} @dragleave=${drop.dragleave} @drop=${drop.drop}>
      <h2 id=${headingId}>${stage.name}</h2>
      <p class="sum">${stage.probability}% · ${stage.deals.length} deal${stage.deals.length === 1 ? '' : 's'}${totals ? ` · ${totals}` : ''}</p>
      <ul aria-labelledby=${headingId}>${repeat(stage.deals, (deal) => deal.id, (deal) => this.card(deal))}</ul>
    </section>`;
  }

  private card(deal: Deal) {
    const stages = this.board?.stages ?? [];
    return html`<li>
      <article
        class="card"
        data-deal=${deal.id}
        tabindex="0"
        draggable="true"
        aria-label=${`${deal.title}, ${moneyText(deal.amount, deal.currency)}, in ${deal.stage_name}. Alt and arrow keys move it to another stage.`}
        @dragstart=${this.moves.drag(deal.id)}
        @keydown=${(event: KeyboardEvent) => this.key(event, deal)}
      >
        <a class="title" href=${appHref(`/deals/${deal.id}`)} @click=${(event: Event) => {
          event.preventDefault();
          void navigate(`/deals/${deal.id}`);
        }}>${deal.title}</a>
        <div class="meta">
          <span>${moneyText(deal.amount, deal.currency)}</span>
          ${deal.close_date ? html`<span>Closes <wpk-date value=${deal.close_date}></wpk-date></span>` : nothing}
          ${deal.overdue ? html`<span class="overdue">Overdue in stage</span>` : nothing}
          ${deal.next_step ? html`<span class=${deal.next_step_overdue ? 'overdue' : ''}>Next: ${deal.next_step}${deal.next_step_due ? html` (<wpk-date value=${deal.next_step_due}></wpk-date>)` : nothing}</span>` : nothing}
          ${this.moves.select('Stage', stages, deal.stage_id, (stageId) => void this.move(deal, stageId))}
        </div>
      </article>
    </li>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    if (!this.loaded) return html`<wa-spinner label="Loading the pipeline"></wa-spinner>`;
    if (!this.board) {
      return html`<h1>Pipeline</h1><p>No pipeline yet.</p><wa-button variant="brand" @click=${() => this.starter()}>Create a sales pipeline</wa-button>`;
    }
    return html`<h1>${this.board.name}</h1>
      <div class="toolbar">
        ${this.pipelines.length > 1
          ? html`<label class="move">Pipeline
              <select @change=${(event: Event) => {
                this.pipelineId = (event.target as HTMLSelectElement).value;
                void this.loadBoard();
              }}>${this.pipelines.map((pipeline) => html`<option value=${pipeline.id} ?selected=${pipeline.id === this.pipelineId}>${pipeline.name}</option>`)}</select>
            </label>`
          : nothing}
        <form class="add" @submit=${this.add}>
          <wa-input label="New deal" name="title" maxlength="200"></wa-input>
          <wa-input label="Amount" name="amount" inputmode="decimal" placeholder="0.00"></wa-input>
          <wa-button type="submit" variant="brand">Add deal</wa-button>
        </form>
      </div>
      <div class="stages">${this.board.stages.map((stage, index) => this.stage(stage, index))}</div>
      ${this.moves.region()}`;
  }
}

customElements.define('crm-board', CrmBoard);
