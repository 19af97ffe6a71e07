import { LitElement, css, errorText, html, kit, screenStyles, toast, type components } from '@wpk/ui';

type Field = components['schemas']['TablesField'];
type TableRecord = components['schemas']['TablesRecord'];

/** Types a grid cell edits as text. */
const EDITABLE = new Set(['text', 'long_text', 'number', 'currency', 'date']);

/**
 * `/tables/:table_id`: the table's grid. A text, number, currency or date cell is edited in place
 * (Enter or leaving the cell saves, Escape cancels); the write carries the version the cell was
 * read at, so a cell someone else changed meanwhile is refused (409) and reloaded, never overwritten.
 */
export class TablesGrid extends LitElement {
  static override properties = { tableId: { type: String }, fields: { state: true }, records: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`table { width: 100%; } td input { width: 100%; box-sizing: border-box; } .scroll { overflow-x: auto; }`];
  declare tableId: string;
  declare fields: Field[];
  declare records: TableRecord[];
  declare error: string | null;

  constructor() {
    super();
    this.tableId = '';
    this.fields = [];
    this.records = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Grid');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const client = kit().client.tables;
      this.fields = (await client.getTablesTablesByTableIdFields({ params: { table_id: this.tableId }, query: { per_page: 100 } })).data as Field[];
      this.records = (await client.getTablesTablesByTableIdRecords({ params: { table_id: this.tableId }, query: { per_page: 100 } })).data as TableRecord[];
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async save(record: TableRecord, field: Field, text: string): Promise<void> {
    const cells = record.cells as Record<string, unknown>;
    const before = cells[field.id] ?? null;
    const value = text === '' ? null : field.type === 'number' ? Number(text) : text;
    if (String(before ?? '') === text) return;
    try {
      const updated = await kit().client.tables.patchTablesRecordsByRecordId({ params: { record_id: record.id }, body: { cells: { [field.id]: value }, versions: { [field.id]: (record.versions as Record<string, number>)[field.id] ?? 0 } } as never });
      this.records = this.records.map((row) => (row.id === record.id ? (updated.data as TableRecord) : row));
    } catch (error) {
      toast(errorText(error), 'danger');
      await this.load();
    }
  }

  protected override render() {
    return html`<h1>Grid</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <div class="scroll"><table aria-label="Records">
        <thead><tr>${this.fields.map((field) => html`<th scope="col">${field.name}</th>`)}</tr></thead>
        <tbody>${this.records.map((record) => html`<tr>${this.fields.map((field) => {
          const value = (record.cells as Record<string, unknown>)[field.id];
          const text = value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
          if (!EDITABLE.has(field.type)) return html`<td>${text}</td>`;
          return html`<td><input aria-label=${`${field.name} of ${record.title || `#${record.number}`}`} .value=${text}
            @keydown=${(event: KeyboardEvent) => {
              const input = event.target as HTMLInputElement;
              if (event.key === 'Enter') input.blur();
              if (event.key === 'Escape') input.value = text;
            }}
            @change=${(event: Event) => void this.save(record, field, (event.target as HTMLInputElement).value)} /></td>`;
        })}</tr>`)}</tbody>
      </table></div>`;
  }
}

customElements.define('tables-grid', TablesGrid);
