import { ApiError, LitElement, appLink, cardStyles, css, errorText, html, isApiError, kit, screenStyles, sendSchemaForm, toast, type FieldSchema, type FormSchema, type components } from '@wpk/ui';

type Field = components['schemas']['TablesField'];
type TableRecord = components['schemas']['TablesRecord'];

/**
 * Writes one cell with the version it was read at (the grid's cells, the kanban's moves): the
 * record as the server now holds it, or null once the reason is shown (a stale version is a 409
 * naming the current value; the caller reloads).
 */
export async function writeCell(record: TableRecord, fieldId: string, value: unknown, version: number): Promise<TableRecord | null> {
  try {
    const updated = await kit().client.tables.patchTablesRecordsByRecordId({ params: { record_id: record.id }, body: { cells: { [fieldId]: value }, versions: { [fieldId]: version } } as never });
    return updated.data as TableRecord;
  } catch (error) {
    toast(errorText(error), 'danger');
    return null;
  }
}
type View = components['schemas']['TablesView'];
type ViewConfig = { date_field_id?: string; hidden_fields?: string[]; form_fields?: string[] };

/** Field types a person fills in (the ones a form asks for; computed, attachment, link and member cells are not). */
const FILLABLE = new Set(['text', 'long_text', 'number', 'currency', 'date', 'checkbox', 'single_select', 'email', 'url', 'phone']);
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const configOf = (view: View) => view.config as ViewConfig;
const cellText = (value: unknown) => (value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));
const titleOf = (record: TableRecord) => record.title || `Record ${record.number}`;
/** A link opening the record's screen. */
export const recordLink = (record: TableRecord) => appLink(`/tables/records/${record.id}`, titleOf(record));
/** The fields a view shows: all but its hidden ones. */
export const visibleFields = (view: View, fields: Field[]) => fields.filter((field) => !(configOf(view).hidden_fields ?? []).includes(field.id));
/** Records a page of a calendar or a gallery asks for at once. */
export const PAGE_SIZE = 100;
/** The most pages a calendar reads for one month, or a kanban for its board (10,000 records). */
const MONTH_PAGES = 100;

/**
 * One keyset page of a view's records as the API lists them with the view's saved filters, sorts
 * and hidden fields (and `filters` besides), after the cursor `after` (null: the first page).
 */
async function pageOf(view: View, after: string | null, filters: Array<{ field_id: string; op: string; value: string }> = []): Promise<{ records: TableRecord[]; next: string | null }> {
  const query = { view_id: view.id, per_page: PAGE_SIZE, ...(filters.length ? { filter: JSON.stringify(filters) } : {}), ...(after ? { after } : {}) };
  const answer = await kit().client.tables.getTablesTablesByTableIdRecords({ params: { table_id: view.table_id }, query: query as never });
  return { records: answer.data as TableRecord[], next: answer.next_cursor };
}

/** Every page of a view's records (and `filters` besides), following the keyset cursor, up to MONTH_PAGES pages. */
async function allOf(view: View, filters: Array<{ field_id: string; op: string; value: string }> = []): Promise<TableRecord[]> {
  const records: TableRecord[] = [];
  let after: string | null = null;
  for (let read = 0; read < MONTH_PAGES; read += 1) {
    const page = await pageOf(view, after, filters);
    records.push(...page.records);
    after = page.next;
    if (!after) break;
  }
  return records;
}

/**
 * What a calendar, a gallery and a kanban share: they list the view's records (its saved filters, sorts and
 * hidden fields) and list them again when the table's records change (`changes`: the screen's
 * records, which its live channel keeps current).
 */
abstract class ViewRecords extends LitElement {
  static override properties = { view: { attribute: false }, fields: { attribute: false }, changes: { attribute: false }, records: { state: true }, error: { state: true } };
  declare view: View;
  declare fields: Field[];
  declare changes: unknown;
  declare records: TableRecord[];
  declare error: string | null;

  constructor() {
    super();
    this.fields = [];
    this.records = [];
    this.error = null;
  }

  protected abstract list(): Promise<TableRecord[]>;

  /** The number of the latest listing asked for: an older one answering later is dropped. */
  private reads = 0;

  protected async reload(): Promise<void> {
    const read = (this.reads += 1);
    try {
      const records = await this.list();
      if (read !== this.reads) return;
      this.records = records;
      this.error = null;
    } catch (error) {
      if (read === this.reads) this.error = errorText(error);
    }
  }

  protected override updated(changed: Map<string, unknown>): void {
    if (changed.has('view') || changed.has('changes')) void this.reload();
  }

  protected failure() {
    return this.error ? html`<p class="error" role="alert">${this.error}</p>` : '';
  }
}

const pad = (value: number) => String(value).padStart(2, '0');
const monthKey = (year: number, month: number) => `${year}-${pad(month + 1)}`;

/**
 * A calendar view: a month grid (Monday first) placing each record on its date field's day, with
 * the previous and next months; on a narrow screen, a list by day of the days that have records.
 */
export class TablesCalendar extends ViewRecords {
  static override properties = { ...ViewRecords.properties, year: { state: true }, month: { state: true } };
  static override styles = [
    screenStyles,
    css`
      .bar { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.5rem 0; }
      .bar h2 { margin: 0; min-width: 10rem; }
      table.month { border-collapse: collapse; width: 100%; table-layout: fixed; }
      table.month th, table.month td { border: 1px solid var(--wa-color-neutral-border-quiet, #d4d4d8); padding: 0.25rem; vertical-align: top; text-align: start; }
      table.month td { height: 5rem; }
      table.month td.outside { background: var(--wa-color-neutral-fill-quiet, #f4f4f5); }
      .day { font-weight: bold; }
      ul.events { list-style: none; margin: 0; padding: 0; font-size: 0.875rem; overflow-wrap: anywhere; }
      ol.days { display: none; list-style: none; padding: 0; }
      ol.days > li { margin-bottom: 0.5rem; }
      @media (max-width: 40rem) {
        table.month { display: none; }
        ol.days { display: block; }
      }
    `,
  ];
  declare year: number;
  declare month: number;

  constructor() {
    super();
    const today = new Date();
    this.year = today.getFullYear();
    this.month = today.getMonth();
  }

  /**
   * The month's records, all of them: a date range on the view's date field (its first and last
   * day), read page after page by the keyset cursor.
   */
  protected async list(): Promise<TableRecord[]> {
    const field = configOf(this.view).date_field_id;
    if (!field) return [];
    const prefix = monthKey(this.year, this.month);
    const last = new Date(this.year, this.month + 1, 0).getDate();
    return allOf(this.view, [{ field_id: field, op: 'gte', value: `${prefix}-01` }, { field_id: field, op: 'lte', value: `${prefix}-${pad(last)}` }]);
  }

  private move(step: number): void {
    const next = new Date(this.year, this.month + step, 1);
    this.year = next.getFullYear();
    this.month = next.getMonth();
    void this.reload();
  }

  protected override render() {
    const field = this.fields.find((one) => one.id === configOf(this.view).date_field_id);
    if (!field) return html`<p class="muted">This view's date field was deleted.</p>`;
    const prefix = monthKey(this.year, this.month);
    const byDay = new Map<number, TableRecord[]>();
    for (const record of this.records) {
      const value = (record.cells as Record<string, unknown>)[field.id];
      if (typeof value !== 'string' || !value.startsWith(`${prefix}-`)) continue;
      const day = Number(value.slice(8, 10));
      byDay.set(day, [...(byDay.get(day) ?? []), record]);
    }
    const title = new Date(this.year, this.month, 1).toLocaleDateString('en', { month: 'long', year: 'numeric' });
    const days = new Date(this.year, this.month + 1, 0).getDate();
    const lead = (new Date(this.year, this.month, 1).getDay() + 6) % 7;
    const cells = [...Array.from({ length: lead }, () => 0), ...Array.from({ length: days }, (_, index) => index + 1)];
    while (cells.length % 7) cells.push(0);
    const weeks = Array.from({ length: cells.length / 7 }, (_, index) => cells.slice(index * 7, index * 7 + 7));
    const dayLabel = (day: number) => new Date(this.year, this.month, day).toLocaleDateString('en', { weekday: 'long', day: 'numeric', month: 'long' });
    const events = (day: number) => html`<ul class="events">${(byDay.get(day) ?? []).map((record) => html`<li>${recordLink(record)}</li>`)}</ul>`;
    return html`${this.failure()}<div class="bar">
        <button type="button" @click=${() => this.move(-1)}>Previous month</button>
        <h2 aria-live="polite">${title}</h2>
        <button type="button" @click=${() => this.move(1)}>Next month</button>
        <span class="muted">By ${field.name}</span>
      </div>
      <table class="month" aria-label=${`${this.view.name}, ${title}`}>
        <thead><tr>${WEEKDAYS.map((name) => html`<th scope="col">${name}</th>`)}</tr></thead>
        <tbody>${weeks.map((week) => html`<tr>${week.map((day) => (day ? html`<td aria-label=${dayLabel(day)}><span class="day">${day}</span>${events(day)}</td>` : html`<td class="outside"></td>`))}</tr>`)}</tbody>
      </table>
      <ol class="days" aria-label=${`${this.view.name}, ${title}, by day`}>
        ${[...byDay.keys()].sort((a, b) => a - b).map((day) => html`<li><h3>${dayLabel(day)}</h3>${events(day)}</li>`)}
        ${byDay.size ? '' : html`<li class="muted">No record this month.</li>`}
      </ol>`;
  }
}

/**
 * A gallery view: a card per record with its title (opening the record) and the view's visible
 * fields, a page at a time: "Load more" reads the next keyset page. A live change reads again as
 * many records as are shown.
 */
export class TablesGallery extends ViewRecords {
  static override properties = { ...ViewRecords.properties, next: { state: true }, loading: { state: true } };
  static override styles = [
    screenStyles,
    cardStyles,
    css`
      ul.cards { grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); }
      ul.cards h3 { margin: 0 0 0.5rem; }
      dl { margin: 0; display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 0.5rem; overflow-wrap: anywhere; }
      dt { font-weight: bold; }
      dd { margin: 0; }
    `,
  ];

  /** The cursor of the next page (null: every record is shown). */
  declare next: string | null;
  declare loading: boolean;

  constructor() {
    super();
    this.next = null;
    this.loading = false;
  }

  protected async list(): Promise<TableRecord[]> {
    const shown = this.records.length;
    const records: TableRecord[] = [];
    let after: string | null = null;
    do {
      const page = await pageOf(this.view, after);
      records.push(...page.records);
      after = page.next;
    } while (after && records.length < shown);
    this.next = after;
    return records;
  }

  protected override updated(changed: Map<string, unknown>): void {
    if (changed.has('view') && (changed.get('view') as View | undefined)?.id !== this.view.id) this.records = [];
    super.updated(changed);
  }

  private async more(): Promise<void> {
    if (!this.next || this.loading) return;
    this.loading = true;
    try {
      const page = await pageOf(this.view, this.next);
      const known = new Set(this.records.map((record) => record.id));
      this.records = [...this.records, ...page.records.filter((record) => !known.has(record.id))];
      this.next = page.next;
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.loading = false;
    }
  }

  protected override render() {
    const shown = visibleFields(this.view, this.fields);
    return html`${this.failure()}<ul class="cards" aria-label=${this.view.name}>${this.records.map((record) => html`<li aria-label=${titleOf(record)}>
        <h3>${recordLink(record)}</h3>
        <dl>${shown.map((field) => html`<dt>${field.name}</dt><dd>${cellText((record.cells as Record<string, unknown>)[field.id]) || '—'}</dd>`)}</dl>
      </li>`)}</ul>
      ${this.records.length ? '' : html`<p class="muted">No record yet.</p>`}
      ${this.next ? html`<p><button type="button" ?disabled=${this.loading} @click=${() => void this.more()}>Load more</button> <span class="muted" aria-live="polite">${this.records.length} shown</span></p>` : ''}`;
  }
}

/**
 * A kanban view: a column per choice of its single select field and one for no value, each holding
 * the records the view's saved filters select, in its saved sort order (the API lists them with
 * `view_id`, every page). A card's select moves it: the write carries the version the board read,
 * so a card someone changed meanwhile is refused (409, shown) and the board read again.
 */
export class TablesKanban extends ViewRecords {
  static override styles = [
    screenStyles,
    css`
      .board { display: flex; gap: 0.75rem; overflow-x: auto; align-items: flex-start; }
      .column { min-width: 12rem; flex: 1; border: 1px solid var(--wa-color-neutral-border-quiet, #d4d4d8); border-radius: 0.5rem; padding: 0.5rem; }
      .column ul { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 0.5rem; }
      .card { border: 1px solid var(--wa-color-neutral-border-normal, #a1a1aa); border-radius: 0.375rem; padding: 0.5rem; }
      .card p { margin: 0 0 0.25rem; }
    `,
  ];

  protected list(): Promise<TableRecord[]> {
    return allOf(this.view);
  }

  private async move(record: TableRecord, field: Field, value: string | null): Promise<void> {
    const updated = await writeCell(record, field.id, value, (record.versions as Record<string, number>)[field.id] ?? 0);
    if (updated) this.records = this.records.map((row) => (row.id === record.id ? updated : row));
    else await this.reload();
  }

  protected override render() {
    const field = this.fields.find((one) => one.id === (this.view.config as { kanban_field_id?: string }).kanban_field_id);
    if (!field) return html`<p class="muted">This view's field was deleted.</p>`;
    const choices = ((field.options as { choices?: Array<{ name: string }> }).choices ?? []).map((choice) => choice.name);
    const columns: Array<[string | null, string]> = [...choices.map((choice): [string, string] => [choice, choice]), [null, 'No value']];
    const card = (record: TableRecord) => {
      const value = (record.cells as Record<string, unknown>)[field.id] ?? null;
      return html`<li class="card"><p><strong>${titleOf(record)}</strong></p>
        <select aria-label=${`${field.name} of ${record.title || `record ${record.number}`}`} @change=${(event: Event) => void this.move(record, field, (event.target as HTMLSelectElement).value || null)}>
          <option value="" ?selected=${!value}>—</option>
          ${choices.map((choice) => html`<option ?selected=${choice === value}>${choice}</option>`)}
        </select></li>`;
    };
    return html`${this.failure()}<div class="board" role="region" aria-label=${this.view.name} tabindex="0">${columns.map(([choice, label]) => {
      const cards = this.records.filter((record) => ((record.cells as Record<string, unknown>)[field.id] ?? null) === choice);
      return html`<section class="column" aria-label=${label}><h2>${label} (${cards.length})</h2><ul>${cards.map(card)}</ul></section>`;
    })}</div>`;
  }
}

/** A field as the kit's schema form asks for it. */
function fieldSchema(field: Field): FieldSchema {
  const choices = ((field.options as { choices?: Array<{ name: string }> }).choices ?? []).map((choice) => choice.name);
  if (field.type === 'checkbox') return { type: 'boolean', title: field.name };
  if (field.type === 'number') return { type: 'number', title: field.name };
  if (field.type === 'date') return { type: 'string', format: 'date', title: field.name };
  if (field.type === 'single_select') return { type: 'string', title: field.name, enum: choices };
  if (field.type === 'long_text') return { type: 'string', title: field.name, 'x-widget': 'textarea', maxLength: 100_000 };
  // A text cell takes up to 1,000 characters (the API refuses more); a maxLength past 500 would make the kit's form a textarea.
  return { type: 'string', title: field.name };
}

/** A refusal naming a cell (`cells.{field_id}`: "cells.{field_id}: Price takes…") as one naming the form's field, worded without the path. */
function asFormRefusal(error: unknown): unknown {
  if (!isApiError(error) || !error.field?.startsWith('cells.')) return error;
  const message = error.error.replace(/^cells\.[^:]+: /, '');
  return new ApiError(error.status, message, { ...(error.body as object), error: message, field: error.field.slice('cells.'.length) }, error.headers);
}

/**
 * A form view in the app: its fields (`form_fields`, else the visible ones a person fills in) as
 * the kit's schema form; submitting adds a record. "Share the form" makes its public link (a new
 * one replaces the old) and shows it to copy.
 */
export class TablesFormView extends LitElement {
  static override properties = { view: { attribute: false }, fields: { attribute: false }, tableId: { type: String }, link: { state: true } };
  static override styles = [screenStyles, css`.share { margin-top: 1.5rem; } .share input { width: 100%; max-width: 40rem; box-sizing: border-box; font: inherit; }`];
  declare view: View;
  declare fields: Field[];
  declare tableId: string;
  declare link: string | null;

  constructor() {
    super();
    this.fields = [];
    this.tableId = '';
    this.link = null;
  }

  /** The fields the form asks for. */
  private asked(): Field[] {
    const chosen = configOf(this.view).form_fields ?? [];
    const fillable = this.fields.filter((field) => FILLABLE.has(field.type));
    if (chosen.length) return chosen.map((id) => fillable.find((field) => field.id === id)).filter((field): field is Field => Boolean(field));
    return visibleFields(this.view, fillable);
  }

  private async share(): Promise<void> {
    try {
      const made = await kit().client.tables.postTablesViewsByViewIdFormLink({ params: { view_id: this.view.id } });
      // The server's address of the page (the workspace's public origin): this frame's own origin is opaque.
      this.link = (made.data as { url: string }).url;
      toast('Public link made: anyone with it can submit the form', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /**
   * Copies the link: the Clipboard API where the frame may use it, else the selected input's text
   * (execCommand, allowed on a click in a sandboxed frame); if both fail, the link stays selected to copy by hand.
   */
  private async copy(): Promise<void> {
    if (!this.link) return;
    const input = this.renderRoot.querySelector<HTMLInputElement>('#form-link');
    try {
      await navigator.clipboard.writeText(this.link);
      toast('Link copied', 'success');
      return;
    } catch {
      /* no clipboard permission in this frame: copy the selected text */
    }
    input?.focus();
    input?.select();
    if (document.execCommand('copy')) toast('Link copied', 'success');
    else toast('Copying was refused: the link is selected, copy it with the keyboard', 'neutral');
  }

  protected override render() {
    const asked = this.asked();
    const schema: FormSchema = { type: 'object', properties: Object.fromEntries(asked.map((field) => [field.id, fieldSchema(field)])) };
    return html`${asked.length ? html`<wpk-schema-form .schema=${schema} submit-label="Submit" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) =>
        sendSchemaForm(event, (cells) => kit().client.tables.postTablesTablesByTableIdRecords({ params: { table_id: this.tableId }, body: { cells } as never }).catch((error: unknown) => Promise.reject(asFormRefusal(error))), () => toast('Record added', 'success'))}></wpk-schema-form>` : html`<p class="muted">This form asks for no field.</p>`}
      <section class="share" aria-label="Share the form">
        <button type="button" @click=${() => void this.share()}>Share the form</button>
        ${this.link ? html`<p><label for="form-link">Public link (making a new one replaces it)</label><br /><input id="form-link" readonly .value=${this.link} @focus=${(event: Event) => (event.target as HTMLInputElement).select()} /></p>
          <p><button type="button" @click=${() => void this.copy()}>Copy the link</button></p>` : ''}
      </section>`;
  }
}

customElements.define('tables-calendar', TablesCalendar);
customElements.define('tables-kanban', TablesKanban);
customElements.define('tables-gallery', TablesGallery);
customElements.define('tables-form-view', TablesFormView);
