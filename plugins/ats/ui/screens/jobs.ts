import { LitElement, appLink, errorText, html, kit, nothing, screenStyles } from '@wpk/ui';
import { JOB_STATUS, LIST_STYLES, type Job } from '../api.js';

/** `/`: the jobs, open ones first, each with its status, place and a link to its pipeline board. */
export class AtsJobs extends LitElement {
  static override properties = { jobs: { state: true }, error: { state: true } };
  static override styles = [screenStyles, LIST_STYLES];
  declare jobs: Job[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.jobs = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Jobs');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const jobs = (await kit().client.ats.getAtsJobs({ query: { per_page: 100 } })).data as Job[];
      const order = ['open', 'approval', 'draft', 'hold', 'closed'];
      this.jobs = [...jobs].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    if (this.error) return html`<h1>Jobs</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.jobs) return html`<wa-spinner label="Loading the jobs"></wa-spinner>`;
    return html`<h1>Jobs</h1>
      ${this.jobs.length
        ? html`<ul class="cards" aria-label="Jobs">${this.jobs.map((job) => html`<li>
            ${appLink(`/jobs/${job.id}`, html`<strong>${job.title}</strong>`)}
            <div class="meta">
              <span class="badge">${JOB_STATUS[job.status] ?? job.status}</span>
              ${job.location ? html`<span>${job.location}</span>` : nothing}
              <span>${job.headcount} ${job.headcount === 1 ? 'opening' : 'openings'}</span>
            </div>
          </li>`)}</ul>`
        : html`<p class="muted">No job yet.</p>`}`;
  }
}

customElements.define('ats-jobs', AtsJobs);
