import { LitElement, css, errorText, html, kit, liveConnection, screenStyles, toast, type components } from '@wpk/ui';
import { writeCell } from './views.js';
import './view-menu.js';

type Field = components['schemas']['TablesField'];
type TableRecord = components['schemas']['TablesRecord'];
type View = components['schemas']['TablesView'];

/** Types a grid cell edits as text. */
const TEXT_TYPES = new Set(['text', 'long_text', 'number', 'currency', 'date']);
/** Field types offered when adding a field. */
const FIELD_TYPES: Array<[string, string]> = [
  ['text', 'Text'], ['long_text', 'Long text'], ['number', 'Number'], ['currency', 'Currency'], ['date', 'Date'], ['checkbox', 'Checkbox'],
  ['single_select', 'Single select'], ['multiple_select', 'Multiple select'], ['formula', 'Formula'], ['autonumber', 'Autonumber'],
];

const cellsOf = (record: TableRecord) => record.cells as Record<string, unknown>;
const versionsOf = (record: TableRecord) => record.versions as Record<string, number>;
const textOf = (value: unknown) => (value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value));

/**
 * `/tables/:table_id`: the table as a grid or as one of its views (kanban, calendar, gallery, form). A text, number,
 * currency or date cell is edited in place (Enter or leaving the cell saves, Escape cancels), a
 * checkbox or a single select at once. A write carries the version the cell had when editing
 * began, so a cell someone else changed meanwhile is refused (409, shown) and reloaded, never
 * overwritten; the table's live channel brings everyone else's changes.
 */
export class TablesGrid extends LitElement {
  static override properties = { tableId: { type: String }, fields: { state: true }, records: { state: true }, views: { state: true }, viewId: { state: true }, newType: { state: true }, newView: { state: true }, error: { state: true }, inverses: { state: true } };
  static override styles = [
    screenStyles,
    css`
      .scroll { overflow-x: auto; max-width: 100%; }
      table { border-collapse: collapse; }
      th, td { border: 1px solid var(--wa-color-neutral-border-quiet, #d4d4d8); padding: 0.25rem; text-align: left; vertical-align: top; }
      td input[type='text'] { min-width: 7rem; width: 100%; box-sizing: border-box; font: inherit; }
      form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; margin: 0.75rem 0; }
      form .control { display: flex; flex-direction: column; gap: 0.25rem; }
      .views { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.5rem 0; }
    `,
  ];
  declare tableId: string;
  declare fields: Field[];
  declare records: TableRecord[];
  declare views: View[];
  declare viewId: string | null;
  declare newType: string;
  /** The type chosen in "Add a view". */
  declare newView: string;
  declare error: string | null;
  /** A two-way link's inverse field name in the linked table, by link field id. */
  declare inverses: Map<string, string>;
  /** The version of the cell being edited when editing began (`record:field` → version). */
  private readonly editing = new Map<string, number>();
  private unfollow: (() => void) | null = null;

  constructor() {
    super();
    this.tableId = '';
    this.fields = [];
    this.records = [];
    this.views = [];
    this.inverses = new Map();
    this.viewId = null;
    this.newType = 'text';
    this.newView = 'calendar';
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Table');
    this.unfollow = liveConnection().follow(`tables/tables/${this.tableId}`, {
      event: (event) => this.live(event.event, event.data),
      subscribed: ({ reset }) => {
        if (reset) void this.load();
      },
    });
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unfollow?.();
  }

  private live(type: string, data: Record<string, unknown>): void {
    if (type.startsWith('field.')) {
      void this.load();
      return;
    }
    if (type === 'record.deleted') this.records = this.records.filter((row) => row.id !== data.id);
    else if (type === 'record.created' && !this.records.some((row) => row.id === data.id)) this.records = [...this.records, data as unknown as TableRecord];
    else if (type === 'record.updated') this.records = this.records.map((row) => (row.id === data.id && (data.revision as number) >= row.revision ? ({ ...row, ...data } as TableRecord) : row));
  }

  private async load(): Promise<void> {
    try {
      const client = kit().client.tables;
      const params = { table_id: this.tableId };
      this.fields = (await client.getTablesTablesByTableIdFields({ params, query: { per_page: 100 } })).data as Field[];
      this.views = (await client.getTablesTablesByTableIdViews({ params, query: { per_page: 100 } })).data as View[];
      this.records = (await client.getTablesTablesByTableIdRecords({ params, query: { per_page: 100 } })).data as TableRecord[];
      await this.loadInverses();
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** The names of the link fields' inverses, read from each linked table's fields. */
  private async loadInverses(): Promise<void> {
    const inverses = new Map<string, string>();
    const links = this.fields.filter((field) => field.type === 'link' && (field.options as { inverse_field_id?: string | null }).inverse_field_id);
    for (const tableId of new Set(links.map((field) => (field.options as { table_id: string }).table_id))) {
      const theirs = (await kit().client.tables.getTablesTablesByTableIdFields({ params: { table_id: tableId }, query: { per_page: 100 } })).data as Field[];
      for (const link of links) {
        const inverse = theirs.find((one) => one.id === (link.options as { inverse_field_id?: string }).inverse_field_id);
        if (inverse) inverses.set(link.id, inverse.name);
      }
    }
    this.inverses = inverses;
  }

  private async write(record: TableRecord, field: Field, value: unknown, version: number): Promise<void> {
    const updated = await writeCell(record, field.id, value, version);
    if (updated) this.records = this.records.map((row) => (row.id === record.id ? updated : row));
    else await this.load();
  }

  private async saveText(record: TableRecord, field: Field, input: HTMLInputElement): Promise<void> {
    const key = `${record.id}:${field.id}`;
    const version = this.editing.get(key) ?? versionsOf(record)[field.id] ?? 0;
    this.editing.delete(key);
    const text = input.value.trim();
    if (text === textOf(cellsOf(record)[field.id])) return;
    const value = text === '' ? null : field.type === 'number' ? Number(text) : text;
    await this.write(record, field, value, version);
  }

  private async addField(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const type = String(data.get('type'));
    const options: Record<string, unknown> = {};
    if (type === 'formula') options.expression = String(data.get('expression') ?? '');
    if (type === 'single_select' || type === 'multiple_select') options.choices = String(data.get('choices') ?? '').split(',').map((name) => name.trim()).filter(Boolean).map((name) => ({ name }));
    try {
      await kit().client.tables.postTablesTablesByTableIdFields({ params: { table_id: this.tableId }, body: { name: String(data.get('name') ?? ''), type, ...(Object.keys(options).length ? { options } : {}) } as never });
      form.reset();
      this.newType = 'text';
      toast('Field added', 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async addRecord(): Promise<void> {
    try {
      const made = await kit().client.tables.postTablesTablesByTableIdRecords({ params: { table_id: this.tableId }, body: { cells: {} } as never });
      if (!this.records.some((row) => row.id === (made.data as TableRecord).id)) this.records = [...this.records, made.data as TableRecord];
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async addKanban(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const field = this.fields.find((one) => one.id === data.get('kanban_field_id'));
    try {
      const view = await kit().client.tables.postTablesTablesByTableIdViews({ params: { table_id: this.tableId }, body: { name: `By ${field?.name ?? 'group'}`, type: 'kanban', config: { kanban_field_id: String(data.get('kanban_field_id')) } } as never });
      await this.load();
      this.viewId = (view.data as View).id;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async addView(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const type = String(data.get('type'));
    const field = this.fields.find((one) => one.id === data.get('date_field_id'));
    const name = type === 'calendar' ? `Calendar by ${field?.name ?? 'date'}` : type === 'gallery' ? 'Gallery' : 'Form';
    const personal = data.get('personal') !== null;
    try {
      const view = await kit().client.tables.postTablesTablesByTableIdViews({ params: { table_id: this.tableId }, body: { name, type, ...(personal ? { personal } : {}), config: type === 'calendar' ? { date_field_id: String(data.get('date_field_id')) } : {} } as never });
      // The next view is shared unless asked again.
      (form.elements.namedItem('personal') as HTMLInputElement).checked = false;
      await this.load();
      this.viewId = (view.data as View).id;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** A view renamed or its settings saved from its menu: the bar and the view show it as answered. */
  private changed(view: View): void {
    this.views = this.views.map((one) => (one.id === view.id ? view : one));
  }

  private deleted(id: string): void {
    this.views = this.views.filter((one) => one.id !== id);
    this.viewId = null;
  }

  private shown(view: View) {
    return html`<tables-view-menu .view=${view} .fields=${this.fields} @view-changed=${(event: CustomEvent<View>) => this.changed(event.detail)} @view-deleted=${(event: CustomEvent<string>) => this.deleted(event.detail)}></tables-view-menu>
      ${this.viewBody(view)}`;
  }

  private viewBody(view: View) {
    if (view.type === 'kanban') return html`<tables-kanban .view=${view} .fields=${this.fields} .changes=${this.records}></tables-kanban>`;
    if (view.type === 'calendar') return html`<tables-calendar .view=${view} .fields=${this.fields} .changes=${this.records}></tables-calendar>`;
    if (view.type === 'gallery') return html`<tables-gallery .view=${view} .fields=${this.fields} .changes=${this.records}></tables-gallery>`;
    return html`<tables-form-view .view=${view} .fields=${this.fields} .tableId=${this.tableId}></tables-form-view>`;
  }

  private cell(record: TableRecord, field: Field) {
    const value = cellsOf(record)[field.id];
    const label = `${field.name} of ${record.title || `record ${record.number}`}`;
    const version = versionsOf(record)[field.id] ?? 0;
    if (field.type === 'checkbox') return html`<input type="checkbox" aria-label=${label} .checked=${value === true} @change=${(event: Event) => void this.write(record, field, (event.target as HTMLInputElement).checked, version)} />`;
    if (field.type === 'single_select') {
      const choices = ((field.options as { choices?: Array<{ name: string }> }).choices ?? []).map((choice) => choice.name);
      return html`<select aria-label=${label} @change=${(event: Event) => void this.write(record, field, (event.target as HTMLSelectElement).value || null, version)}>
        <option value="" ?selected=${!value}>—</option>
        ${choices.map((choice) => html`<option ?selected=${choice === value}>${choice}</option>`)}
      </select>`;
    }
    if (!TEXT_TYPES.has(field.type)) return textOf(value);
    const key = `${record.id}:${field.id}`;
    return html`<input type="text" aria-label=${label} .value=${this.editing.has(key) ? ((this.shadowRoot?.activeElement as HTMLInputElement | null)?.value ?? textOf(value)) : textOf(value)}
      @focus=${() => this.editing.set(key, version)}
      @keydown=${(event: KeyboardEvent) => {
        const input = event.target as HTMLInputElement;
        if (event.key === 'Enter') input.blur();
        if (event.key === 'Escape') {
          input.value = textOf(value);
          this.editing.delete(key);
          input.blur();
        }
      }}
      @blur=${(event: Event) => void this.saveText(record, field, event.target as HTMLInputElement)} />`;
  }

  private grid() {
    return html`<div class="scroll"><table aria-label="Records">
        <thead><tr>${this.fields.map((field) => html`<th scope="col">${field.name}${this.inverses.has(field.id) ? html`<br /><span class="muted">Two-way link, shown as ${this.inverses.get(field.id)} in the linked table</span>` : ''}</th>`)}</tr></thead>
        <tbody>${this.records.map((record) => html`<tr>${this.fields.map((field) => html`<td>${this.cell(record, field)}</td>`)}</tr>`)}</tbody>
      </table></div>
      <p><button type="button" @click=${() => void this.addRecord()}>Add a record</button></p>
      <h2>Add a field</h2>
      <form aria-label="Add a field" @submit=${(event: SubmitEvent) => void this.addField(event)}>
        <span class="control"><label for="field-name">Field name</label><input id="field-name" name="name" required maxlength="200" /></span>
        <span class="control"><label for="field-type">Type</label><select id="field-type" name="type" @change=${(event: Event) => (this.newType = (event.target as HTMLSelectElement).value)}>${FIELD_TYPES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select></span>
        ${this.newType === 'formula' ? html`<span class="control"><label for="field-expression">Formula</label><input id="field-expression" name="expression" required placeholder="{Price} * {Quantity}" /></span>` : ''}
        ${this.newType.endsWith('select') ? html`<span class="control"><label for="field-choices">Choices</label><input id="field-choices" name="choices" placeholder="New, Won, Lost" /></span>` : ''}
        <button type="submit">Add field</button>
      </form>`;
  }

  protected override render() {
    const others = this.views.filter((one) => one.type !== 'grid');
    const view = others.find((one) => one.id === this.viewId);
    const selects = this.fields.filter((field) => field.type === 'single_select');
    const dates = this.fields.filter((field) => field.type === 'date');
    return html`<h1>Table</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <nav class="views" aria-label="Views">
        <button type="button" aria-pressed=${view ? 'false' : 'true'} @click=${() => (this.viewId = null)}>Grid</button>
        ${others.map((one) => html`<button type="button" aria-pressed=${one.id === this.viewId ? 'true' : 'false'} @click=${() => (this.viewId = one.id)}>${one.name}${one.personal ? html`<span class="muted"> (personal)</span>` : ''}</button>`)}
      </nav>
      ${view ? this.shown(view) : this.grid()}
      ${selects.length ? html`<form aria-label="Add a kanban view" @submit=${(event: SubmitEvent) => void this.addKanban(event)}>
        <span class="control"><label for="kanban-field">Group cards by</label><select id="kanban-field" name="kanban_field_id">${selects.map((field) => html`<option value=${field.id}>${field.name}</option>`)}</select></span>
        <button type="submit">Add a kanban view</button></form>` : ''}
      <form aria-label="Add a view" @submit=${(event: SubmitEvent) => void this.addView(event)}>
        <span class="control"><label for="view-type">View</label><select id="view-type" name="type" @change=${(event: Event) => (this.newView = (event.target as HTMLSelectElement).value)}>
          ${dates.length ? html`<option value="calendar" ?selected=${this.newView === 'calendar'}>Calendar</option>` : ''}${[['gallery', 'Gallery'], ['form', 'Form']].map(([value, label]) => html`<option value=${value} ?selected=${this.newView === value}>${label}</option>`)}</select></span>
        ${dates.length && this.newView === 'calendar' ? html`<span class="control"><label for="view-date">Date field</label><select id="view-date" name="date_field_id">${dates.map((field) => html`<option value=${field.id}>${field.name}</option>`)}</select></span>` : ''}
        <label><input type="checkbox" name="personal" /> Only for me (personal)</label>
        <button type="submit">Add the view</button></form>`;
  }
}

customElements.define('tables-grid', TablesGrid);
