import { LitElement, appHref, errorText, html, isApiError, kit, navigate, screenStyles, toast, type FormSchema, type WpkSchemaForm } from '@wpk/ui';
import { CARD_STYLES, EVENTS, WAND_STATUS, type Wand } from '../api.js';

/** The form field a refusal of the wand's parts names (`triggers[0].filter` → `filter`), as an error the form shows on it. */
function onForm(error: unknown): unknown {
  if (!isApiError(error) || !error.field) return error;
  const field = /^(?:triggers|steps)\[0\]\.(action|filter|subject|message)$/.exec(error.field)?.[1] ?? (/^steps\[1\]\.body$/.test(error.field) ? 'task' : undefined);
  return field ? new Error(`${field}: ${error.error.replace(/^[^:]+: /, '')}`) : error;
}

/** `/`: the member's wands, and the form to make one (when an event happens, tell me, and add a task if asked). */
export class WandsList extends LitElement {
  static override properties = { wands: { state: true }, error: { state: true }, loaded: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare wands: Wand[];
  declare error: string | null;
  declare loaded: boolean;

  constructor() {
    super();
    this.wands = [];
    this.error = null;
    this.loaded = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('My wands');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.wands = (await kit().client.wands.getWands({ query: { per_page: 100 } })).data as Wand[];
    } catch (error) {
      this.error = errorText(error);
    }
    this.loaded = true;
  }

  private schema(): FormSchema {
    return {
      required: ['name', 'action', 'subject', 'message'],
      properties: {
        name: { type: 'string', title: 'Name', maxLength: 200 },
        action: { type: 'string', title: 'When', enum: Object.keys(EVENTS), 'x-labels': EVENTS },
        filter: { type: 'string', title: 'Only if (JSONata)', maxLength: 4000, description: 'Over the event: $number(payload.amount) >= 1000. Empty: always.' },
        subject: { type: 'string', title: 'Notify me with the subject', maxLength: 200 },
        message: { type: 'string', title: 'Message (JSONata)', maxLength: 4000, description: 'Over the event: "Follow up on " & trigger.payload.title' },
        task: { type: 'string', title: 'Also add a task titled (JSONata)', maxLength: 4000, description: 'Posted to Tasks as you (needs your right to create tasks): "Kick-off for " & trigger.payload.title. Empty: no task.' },
      },
    };
  }

  private async make(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    const value = event.detail as Record<string, string>;
    const trigger = { type: 'event', action: value.action, ...(value.filter ? { filter: value.filter } : {}) };
    try {
      const steps: Array<Record<string, unknown>> = [{ type: 'notify', subject: value.subject, message: value.message }];
      // A platform call as the owner (the api step), with the one scope it needs.
      if (value.task) steps.push({ type: 'api', method: 'POST', path: '/tasks', body: `{'title': ${value.task}}` });
      const body = { name: value.name, triggers: [trigger], steps, ...(value.task ? { scopes: ['tasks.tasks.create'] } : {}) };
      const made = (await kit().client.wands.postWands({ body } as never)).data as Wand;
      await kit().client.wands.postWandsByWandIdActivate({ params: { wand_id: made.id } });
      toast(`Wand active: ${made.name}`, 'success');
      form.submitting = false;
      form.value = {};
      await this.load();
    } catch (error) {
      form.fail(onForm(error));
    }
  }

  protected override render() {
    return html`<h1>My wands</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${this.loaded && !this.wands.length ? html`<p class="muted">No wand yet.</p>` : ''}
      <ul class="cards" aria-label="My wands">${this.wands.map((wand) => html`<li>
        <a href=${appHref(`/wands/${wand.id}`)} @click=${(event: Event) => { event.preventDefault(); void navigate(`/wands/${wand.id}`); }}><strong>${wand.name}</strong></a>
        <div class="muted">${WAND_STATUS[wand.status]}${wand.version ? ` · version ${wand.version}` : ''}${wand.status_reason ? ` · ${wand.status_reason}` : ''}</div>
      </li>`)}</ul>
      <h2>Make a wand</h2>
      <wpk-schema-form .schema=${this.schema()} .value=${{}} submit-label="Make and activate" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.make(event)}></wpk-schema-form>`;
  }
}

customElements.define('wands-list', WandsList);
