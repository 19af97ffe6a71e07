import { LitElement, css, errorText, html, kit, nothing, screenStyles, toast, type components } from '@wpk/ui';

type Plan = components['schemas']['SettingsImportPlan'];

/** The parts of a plan, in the order the API lists them, with their names for an admin. */
const PARTS = [
  ['organization', 'Organisation'],
  ['locations', 'Locations'],
  ['calendars', 'Calendars'],
  ['roles', 'Custom roles'],
  ['apps', 'Apps (access and settings)'],
] as const;

/** A change as one line: `update organization (base_currency, timezone)`. */
const changeText = (change: Plan['organization']['changes'][number]) => `${change.op} ${change.path}${change.fields ? ` (${change.fields.join(', ')})` : ''}`;

/**
 * `/configuration`: configuration as code for owners and admins. Download the workspace's document
 * (`GET /settings/export`), paste or upload one, see its plan (`POST /settings/imports`: every
 * change per part, or every problem by path) and apply it (`POST /settings/imports/{id}/apply`;
 * a stale plan is refused and says so).
 */
export class SettingsConfiguration extends LitElement {
  static override properties = { text: { state: true }, plan: { state: true }, problems: { state: true }, busy: { state: true } };
  static override styles = [
    screenStyles,
    css`
      textarea { width: 100%; min-height: 14rem; font-family: var(--wpk-font-mono, monospace); font-size: 0.85rem; box-sizing: border-box; }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin: var(--wpk-space-3) 0; align-items: center; }
      ul.problems, ul.changes { margin: var(--wpk-space-2) 0; padding-left: var(--wpk-space-5); overflow-wrap: anywhere; }
      section.part { margin-top: var(--wpk-space-3); }
      h3 { margin: 0; font-size: 1rem; }
    `,
  ];
  declare text: string;
  declare plan: Plan | null;
  declare problems: string[];
  declare busy: boolean;

  constructor() {
    super();
    this.text = '';
    this.plan = null;
    this.problems = [];
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Export / import');
  }

  /** Downloads the document as `{subdomain}-settings.json`, and puts it in the text box to edit. */
  private async download(): Promise<void> {
    try {
      const document = (await kit().client.settings.getSettingsExport({})).data;
      const text = `${JSON.stringify(document, null, 2)}\n`;
      const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      const link = window.document.createElement('a');
      link.href = url;
      link.download = `${kit().workspace.subdomain}-settings.json`;
      link.hidden = true;
      window.document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      this.text = text;
      this.plan = null;
      this.problems = [];
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async upload(event: Event): Promise<void> {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (!file) return;
    this.text = await file.text();
    this.plan = null;
    this.problems = [];
  }

  private async makePlan(): Promise<void> {
    let document: unknown;
    try {
      document = JSON.parse(this.text);
    } catch (error) {
      this.plan = null;
      this.problems = [`The document is not JSON: ${(error as Error).message}`];
      return;
    }
    this.busy = true;
    try {
      this.plan = (await kit().client.settings.postSettingsImports({ body: { document } as never })).data;
      this.problems = [];
    } catch (error) {
      this.plan = null;
      this.problems = errorText(error).split('; ');
    } finally {
      this.busy = false;
    }
  }

  private async apply(plan: Plan): Promise<void> {
    this.busy = true;
    try {
      this.plan = (await kit().client.settings.postSettingsImportsByPlanIdApply({ params: { plan_id: plan.id } })).data;
      toast(`Import applied: ${plan.total_changes} ${plan.total_changes === 1 ? 'change' : 'changes'}`, 'success');
    } catch (error) {
      this.problems = [errorText(error)];
    } finally {
      this.busy = false;
    }
  }

  private planView(plan: Plan) {
    const applied = plan.applied_at !== null;
    return html`<section aria-labelledby="plan">
      <h2 id="plan">${applied ? 'Applied' : 'Plan'}: ${plan.total_changes === 0 ? 'no change' : `${plan.total_changes} ${plan.total_changes === 1 ? 'change' : 'changes'}`}</h2>
      ${PARTS.map(([part, label]) => {
        const { changes, unchanged } = plan[part];
        return html`<section class="part" aria-label=${label}>
          <h3>${label}</h3>
          ${changes.length > 0 ? html`<ul class="changes">${changes.map((change) => html`<li>${changeText(change)}</li>`)}</ul>` : nothing}
          <p>${unchanged} unchanged</p>
        </section>`;
      })}
      ${applied
        ? html`<p role="status">Applied at ${new Date(plan.applied_at!).toLocaleString(kit().locale, { timeZone: kit().timeZone })}.</p>`
        : html`<div class="actions">
            <wa-button variant="brand" ?disabled=${this.busy} @click=${() => this.apply(plan)}>Apply the plan</wa-button>
            <span>Until ${new Date(plan.expires_at).toLocaleTimeString(kit().locale, { timeZone: kit().timeZone })}; a change made meanwhile makes it stale.</span>
          </div>`}
    </section>`;
  }

  protected override render() {
    return html`<h1>Export / import</h1>
      <p>
        The workspace's configuration as one document: the organisation, locations, calendars with their holidays, custom roles, and the installed apps' access and settings, by
        name. Import a document to see what would change, then apply it. What the document leaves out (a role, a location) is deleted; apps are never installed nor removed.
      </p>
      <div class="actions">
        <wa-button @click=${() => this.download()}>Download the document</wa-button>
        <label>Upload a document <input type="file" accept="application/json,.json" @change=${(event: Event) => this.upload(event)} /></label>
      </div>
      <label for="document">Document</label>
      <textarea
        id="document"
        spellcheck="false"
        .value=${this.text}
        @input=${(event: Event) => {
          this.text = (event.target as HTMLTextAreaElement).value;
          this.plan = null;
        }}
      ></textarea>
      <div class="actions"><wa-button variant="brand" ?disabled=${this.busy || this.text.trim() === ''} @click=${() => this.makePlan()}>Plan the import</wa-button></div>
      ${this.problems.length > 0
        ? html`<div role="alert">
            <p>Nothing was changed:</p>
            <ul class="problems">${this.problems.map((problem) => html`<li>${problem}</li>`)}</ul>
          </div>`
        : nothing}
      ${this.plan ? this.planView(this.plan) : nothing}`;
  }
}

customElements.define('settings-configuration', SettingsConfiguration);
