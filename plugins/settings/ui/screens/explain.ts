import { LitElement, css, errorText, html, kit, nothing, screenStyles, type FormSchema, type PickedMember, type WpkSchemaForm } from '@wpk/ui';
import type { Explanation } from '../api.js';

/** The form of the action: a permission key or an operation (free text). */
const ACTION_FORM: FormSchema = {
  required: ['action'],
  properties: {
    action: { type: 'string', title: 'Action', minLength: 1, maxLength: 300, description: 'A permission key (tasks.tasks.create) or an operation (POST /tasks, DELETE /tasks/{task_id}).' },
  },
};

/** The layers' names as an admin reads them. */
const LAYER_NAMES: Record<string, string> = {
  authentication: 'Authentication',
  membership: 'Workspace membership',
  platform_role: 'Platform role',
  app_access: 'App access',
  app_permission: 'App permissions',
};

/** A layer's outcome: a null `passed` is layer 1 not judged (per request) or layer 3 not applied (app actions). */
const outcome = (layer: Explanation['layers'][number]) => (layer.passed === null ? (layer.name === 'platform_role' ? 'Not applied' : 'Not judged') : layer.passed ? 'Passes' : 'Refuses');

/**
 * `/explain`: the permission explainer for admins. Pick a member (the shell's member picker),
 * type an action, and see the five access layers in order with the one that decides marked
 * (`GET /settings/explain`).
 */
export class SettingsExplain extends LitElement {
  static override properties = { member: { state: true }, explanation: { state: true }, error: { state: true } };
  static override styles = [
    screenStyles,
    css`
      wpk-member-picker, wpk-schema-form { margin-top: var(--wpk-space-3); }
      .verdict { margin-top: var(--wpk-space-5); font-weight: var(--wpk-font-weight-bold); }
      ol.layers { list-style: none; padding: 0; margin: var(--wpk-space-3) 0 0; display: grid; gap: var(--wpk-space-2); }
      ol.layers li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m, 6px); padding: var(--wpk-space-2) var(--wpk-space-3); overflow-wrap: anywhere; }
      ol.layers li.decides { border-width: 2px; border-color: var(--wpk-color-danger, #b00020); }
      .head { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: baseline; }
      .name { font-weight: var(--wpk-font-weight-bold); }
      .mark { font-weight: var(--wpk-font-weight-bold); }
      p.reason { margin: var(--wpk-space-1) 0 0; }
    `,
  ];
  declare member: PickedMember | null;
  declare explanation: Explanation | null;
  declare error: string | null;

  constructor() {
    super();
    this.member = null;
    this.explanation = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Explain access');
  }

  private chosen(event: Event): void {
    const [member] = (event.target as unknown as { value: PickedMember[] }).value;
    this.member = member ?? null;
    this.explanation = null;
    this.error = null;
  }

  private async explain(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    if (!this.member) {
      this.error = 'Choose a member first.';
      form.submitting = false;
      return;
    }
    try {
      const query = { member_mrn: `mrn:account:member:${this.member.id}`, action: String(event.detail.action ?? '').trim() };
      this.explanation = (await kit().client.settings.getSettingsExplain({ query })).data as Explanation;
      this.error = null;
      form.submitting = false;
    } catch (error) {
      this.explanation = null;
      const message = errorText(error);
      if (message.startsWith('action')) form.fail(error);
      else {
        this.error = message;
        form.submitting = false;
      }
    }
  }

  private verdict(explanation: Explanation): string {
    if (explanation.decision === 'allowed') return `Allowed: ${explanation.member.name} may do ${explanation.action}.`;
    const layer = explanation.layers.find((candidate) => candidate.layer === explanation.decided_by);
    const where = layer ? `layer ${layer.layer}, ${LAYER_NAMES[layer.name] ?? layer.name}` : 'a layer';
    if (explanation.decision === 'depends_on_record') return `Depends on the record: ${where} lets ${explanation.member.name} do ${explanation.action} only where its check passes.`;
    return `Refused at ${where}: ${explanation.member.name} may not do ${explanation.action}.`;
  }

  private result(explanation: Explanation) {
    return html`<section aria-labelledby="result">
      <h2 id="result">Access of ${explanation.member.name}${explanation.member.active ? '' : ' (removed)'}</h2>
      <p class="verdict" role="status">${this.verdict(explanation)}</p>
      ${explanation.operation ? html`<p>Operation <code>${explanation.operation}</code> of app <code>${explanation.app}</code>.</p>` : html`<p>Permission key of app <code>${explanation.app}</code>.</p>`}
      <ol class="layers" aria-label="The five access layers">
        ${explanation.layers.map((layer) => {
          const decides = layer.layer === explanation.decided_by;
          return html`<li class=${decides ? 'decides' : ''} aria-current=${decides ? 'true' : nothing}>
            <div class="head"><span class="name">${layer.layer}. ${LAYER_NAMES[layer.name] ?? layer.name}</span><span>${outcome(layer)}</span>${decides ? html`<span class="mark">Decides</span>` : nothing}</div>
            <p class="reason">${layer.reason}</p>
          </li>`;
        })}
      </ol>
    </section>`;
  }

  protected override render() {
    return html`<h1>Explain access</h1>
      <p>Which of the five access layers lets a member do an action, or refuses, and why, judged now as a real request would be.</p>
      <wpk-member-picker label="Member" .value=${this.member ? [this.member] : []} @change=${(event: Event) => this.chosen(event)}></wpk-member-picker>
      <wpk-schema-form .schema=${ACTION_FORM} .value=${{}} submit-label="Explain" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.explain(event)}></wpk-schema-form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.explanation ? this.result(this.explanation) : nothing}`;
  }
}

customElements.define('settings-explain', SettingsExplain);
