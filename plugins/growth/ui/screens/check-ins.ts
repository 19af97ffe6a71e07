import { LitElement, errorText, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { CARD_STYLES, type Goal } from '../api.js';

/** `/check-ins`: the active goals with their key results; a key result checked in by hand takes a new value (one fed by events moves by itself). */
export class GrowthCheckIns extends LitElement {
  static override properties = { goals: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare goals: Goal[];
  declare error: string | null;

  constructor() {
    super();
    this.goals = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Check-ins');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const goals: Goal[] = [];
      for await (const goal of kit().client.paginate('getGrowthGoals', { query: { status: 'active', per_page: 100 } })) goals.push(goal as Goal);
      this.goals = goals;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private schema(title: string): FormSchema {
    return { required: ['value'], properties: { value: { type: 'number', title: `New value of ${title}` }, note: { type: 'string', title: `Note on ${title}`, maxLength: 2000 } } };
  }

  private checkIn(goal: Goal, keyResultId: string, title: string, event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        const { value, note } = values as { value: number | string; note?: string };
        const moved = (await kit().client.growth.postGrowthGoalsByGoalIdCheckIns({ params: { goal_id: goal.id }, body: { key_result_id: keyResultId, value: Number(value), ...(note ? { note } : {}) } })).data as Goal;
        toast(`${title}: checked in, ${moved.title} at ${moved.progress}%`, 'success');
      },
      () => this.load(),
    );
  }

  protected override render() {
    return html`<h1>Check-ins</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${this.goals.length
        ? html`<ul class="cards" aria-label="Active goals">${this.goals.map((goal) => html`<li aria-label="${goal.title}">
            <strong>${goal.title}</strong> <span class="muted">${goal.progress}%</span>
            <ul aria-label="Key results of ${goal.title}">${goal.key_results.map((kr) => html`<li>
              ${kr.title}: ${kr.current} of ${kr.target}${kr.unit ? ` ${kr.unit}` : ''} (${kr.progress}%)
              ${kr.source
                ? html`<div class="muted">Moves with ${kr.source.action} events</div>`
                : html`<wpk-schema-form .schema=${this.schema(kr.title)} .value=${{}} submit-label="Check in ${kr.title}" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.checkIn(goal, kr.id, kr.title, event)}></wpk-schema-form>`}
            </li>`)}</ul>
          </li>`)}</ul>`
        : html`<p class="muted">No active goal.</p>`}`;
  }
}

customElements.define('growth-check-ins', GrowthCheckIns);
