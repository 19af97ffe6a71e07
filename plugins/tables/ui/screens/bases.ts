import { LitElement, appLink, errorText, html, kit, screenStyles, type components } from '@wpk/ui';

type Base = components['schemas']['TablesBase'];
type Table = components['schemas']['TablesTable'];

/** `/`: the bases the member has a role on, each with its tables (links to their grids). */
export class TablesBases extends LitElement {
  static override properties = { bases: { state: true }, tables: { state: true }, error: { state: true } };
  static override styles = [screenStyles];
  declare bases: Base[];
  declare tables: Record<string, Table[]>;
  declare error: string | null;

  constructor() {
    super();
    this.bases = [];
    this.tables = {};
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Bases');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const client = kit().client.tables;
      this.bases = (await client.getTablesBases({ query: { per_page: 100 } })).data as Base[];
      const tables: Record<string, Table[]> = {};
      for (const base of this.bases) tables[base.id] = (await client.getTablesBasesByBaseIdTables({ params: { base_id: base.id }, query: { per_page: 100 } })).data as Table[];
      this.tables = tables;
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    return html`<h1>Bases</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${this.bases.length ? '' : html`<p class="muted">No base yet.</p>`}
      ${this.bases.map((base) => html`<section aria-label=${base.name}><h2>${base.name}</h2>
        <ul>${(this.tables[base.id] ?? []).map((table) => html`<li>${appLink(`/tables/${table.id}`, table.name)}</li>`)}</ul></section>`)}`;
  }
}

customElements.define('tables-bases', TablesBases);
