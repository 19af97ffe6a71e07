import { LitElement, errorText, html, kit, screenStyles, toast } from '@wpk/ui';
import { CARD_STYLES, RUN_STATUS, WAND_STATUS, type Run, type Wand } from '../api.js';

/** `/wands/{wand_id}`: a wand (pause, activate) and its runs, each with its per-step log. */
export class WandsWand extends LitElement {
  static override properties = { wandId: { type: String }, wand: { state: true }, runs: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare wandId: string;
  declare wand: Wand | null;
  declare runs: Run[];
  declare error: string | null;

  constructor() {
    super();
    this.wandId = '';
    this.wand = null;
    this.runs = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.wand = (await kit().client.wands.getWandsByWandId({ params: { wand_id: this.wandId } })).data as Wand;
      void kit().bridge.title(this.wand.name);
      const listed = (await kit().client.wands.getWandsByWandIdRuns({ params: { wand_id: this.wandId }, query: { per_page: 20 } })).data as Run[];
      this.runs = await Promise.all(listed.map(async (run) => (await kit().client.wands.getWandsRunsByRunId({ params: { run_id: run.id } })).data as Run));
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async move(to: 'activate' | 'pause'): Promise<void> {
    try {
      this.wand = (to === 'activate'
        ? await kit().client.wands.postWandsByWandIdActivate({ params: { wand_id: this.wandId } })
        : await kit().client.wands.postWandsByWandIdPause({ params: { wand_id: this.wandId } })).data as Wand;
      toast(`${this.wand.name}: ${WAND_STATUS[this.wand.status]}`, 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const wand = this.wand;
    if (!wand) return html`${this.error ? html`<p class="error" role="alert">${this.error}</p>` : html`<p class="muted">Loading…</p>`}`;
    return html`<h1>${wand.name}</h1>
      <p>${WAND_STATUS[wand.status]}${wand.version ? ` · version ${wand.version}` : ''}${wand.status_reason ? ` · ${wand.status_reason}` : ''}</p>
      <div class="actions">
        ${wand.status === 'active' ? html`<wa-button size="small" @click=${() => this.move('pause')}>Pause</wa-button>` : html`<wa-button variant="brand" size="small" @click=${() => this.move('activate')}>Activate</wa-button>`}
        <wa-button size="small" @click=${() => this.load()}>Refresh runs</wa-button>
      </div>
      <h2>Runs</h2>
      ${this.runs.length
        ? html`<ul class="cards" aria-label="Runs">${this.runs.map((run) => html`<li>
            <strong>${RUN_STATUS[run.status]}</strong> · version ${run.version} · ${run.microns} microns
            ${run.error ? html`<div class="error">${run.error}</div>` : ''}
            <ol class="log" aria-label="Steps of the run">${(run.steps ?? []).map((step) => html`<li>${step.type} · ${step.status}${step.output !== null && step.output !== undefined ? html` · <code>${JSON.stringify(step.output)}</code>` : ''}${step.error ? ` · ${step.error}` : ''}</li>`)}</ol>
          </li>`)}</ul>`
        : html`<p class="muted">No run yet.</p>`}`;
  }
}

customElements.define('wands-wand', WandsWand);
