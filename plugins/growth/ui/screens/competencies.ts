import { LitElement, css, errorText, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import type { Competency } from '../api.js';

/** `/competencies`: the competencies with their level descriptors, and a form to add one (one level per line). */
export class GrowthCompetencies extends LitElement {
  static override properties = { competencies: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`ol { margin: 0; } .muted { color: var(--wpk-color-text-muted); }`];
  declare competencies: Competency[];
  declare error: string | null;

  constructor() {
    super();
    this.competencies = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Competencies');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const rows: Competency[] = [];
      for await (const row of kit().client.paginate('getGrowthCompetencies', { query: { per_page: 100 } })) rows.push(row as Competency);
      this.competencies = rows;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private schema(): FormSchema {
    return {
      required: ['name', 'levels'],
      properties: {
        name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
        description: { type: 'string', title: 'Description', maxLength: 5000 },
        levels: { type: 'string', title: 'Levels, lowest first, one per line', 'x-widget': 'textarea', minLength: 1 },
      },
    };
  }

  private add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        const { levels, ...rest } = values as { levels?: string };
        const body = { ...rest, levels: String(levels ?? '').split('\n').map((line) => line.trim()).filter(Boolean) };
        const created = (await kit().client.growth.postGrowthCompetencies({ body: body as never })).data as Competency;
        toast(`${created.name} added`, 'success');
      },
      () => this.load(),
    );
  }

  protected override render() {
    return html`<h1>Competencies</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <ul aria-label="Competencies">
        ${this.competencies.map((row) => html`<li><strong>${row.name}</strong> <span class="muted">${row.description}</span>
          <ol aria-label="Levels of ${row.name}">${row.levels.map((level) => html`<li>${level.descriptor}</li>`)}</ol></li>`)}
      </ul>
      <h2>New competency</h2>
      <wpk-schema-form .schema=${this.schema()} .value=${{}} submit-label="Add competency" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>`;
  }
}

customElements.define('growth-competencies', GrowthCompetencies);
