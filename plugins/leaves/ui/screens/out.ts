import { LitElement, errorText, html, kit, screenStyles } from '@wpk/ui';
import { CARD_STYLES, spanText, type Absence } from '../api.js';

/** The first and last day of the month `day` falls in. */
function monthOf(day: string): { from: string; to: string } {
  const [year, month] = day.split('-').map(Number);
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { from: `${day.slice(0, 7)}-01`, to: `${day.slice(0, 7)}-${String(last).padStart(2, '0')}` };
}

/** `/out`: who is out in a month (approved time off), and the month's list as CSV. */
export class LeavesOut extends LitElement {
  static override properties = { month: { state: true }, rows: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare month: string;
  declare rows: Absence[];
  declare error: string | null;

  constructor() {
    super();
    this.month = new Date().toISOString().slice(0, 7);
    this.rows = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Who is out');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.rows = (await kit().client.leaves.getLeavesCalendar({ query: { ...monthOf(`${this.month}-01`), per_page: 100 } })).data as Absence[];
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    return html`<h1>Who is out</h1>
      <div class="filter"><label for="month">Month</label>
        <input id="month" type="month" .value=${this.month} @change=${(event: Event) => {
          this.month = (event.target as HTMLInputElement).value || this.month;
          void this.load();
        }} /></div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <table aria-label="Who is out">
        <thead><tr><th scope="col">Who</th><th scope="col">Leave type</th><th scope="col">When</th></tr></thead>
        <tbody>${this.rows.map((row) => html`<tr><td>${row.worker_name}</td><td>${row.type_name}</td><td>${spanText(row)}</td></tr>`)}</tbody>
      </table>
      ${this.rows.length ? '' : html`<p class="muted">No one is out that month.</p>`}`;
  }
}

customElements.define('leaves-out', LeavesOut);
