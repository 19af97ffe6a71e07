import { LitElement, appLink, errorText, html, kit, screenStyles, type components } from '@wpk/ui';

type Field = components['schemas']['TablesField'];
type TableRecord = components['schemas']['TablesRecord'];

const cellText = (value: unknown) => (value === null || value === undefined ? '—' : Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

/** `/tables/records/:record_id`: one record's cells by field (a calendar event or a gallery card opens it), with a link back to its table. */
export class TablesRecordScreen extends LitElement {
  static override properties = { recordId: { type: String }, record: { state: true }, fields: { state: true }, error: { state: true } };
  static override styles = [screenStyles];
  declare recordId: string;
  declare record: TableRecord | null;
  declare fields: Field[];
  declare error: string | null;

  constructor() {
    super();
    this.recordId = '';
    this.record = null;
    this.fields = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const client = kit().client.tables;
      const record = (await client.getTablesRecordsByRecordId({ params: { record_id: this.recordId } })).data as TableRecord;
      this.fields = (await client.getTablesTablesByTableIdFields({ params: { table_id: record.table_id }, query: { per_page: 100 } })).data as Field[];
      this.record = record;
      this.error = null;
      void kit().bridge.title(record.title || `Record ${record.number}`);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    const record = this.record;
    if (!record) return html`${this.error ? html`<p class="error" role="alert">${this.error}</p>` : html`<p class="muted">Loading…</p>`}`;
    const cells = record.cells as Record<string, unknown>;
    return html`<h1>${record.title || `Record ${record.number}`}</h1>
      <dl>${this.fields.map((field) => html`<dt>${field.name}</dt><dd>${cellText(cells[field.id])}</dd>`)}</dl>
      <p>${appLink(`/tables/${record.table_id}`, 'Back to the table')}</p>`;
  }
}

customElements.define('tables-record', TablesRecordScreen);
