import { LitElement, css, errorText, html, kit, nothing, screenStyles, type PickedMember } from '@wpk/ui';
import { isoDay, when, type Timesheet } from '../api.js';

/** Monday of the week holding `date` (local calendar). */
function mondayOf(date: Date): Date {
  const monday = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  return monday;
}

/** Seconds as `h:mm` (the timesheet's compact form: 7:05). */
const hm = (seconds: number) => {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
};

const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);

/**
 * `/timesheet`: a week of the member's timesheet (worked time, breaks and net per day, and the
 * totals), or another member's for someone who may read every member's attendances.
 */
export class AttendanceTimesheet extends LitElement {
  static override properties = { monday: { state: true }, sheet: { state: true }, error: { state: true }, loading: { state: true }, whose: { state: true } };
  declare monday: Date;
  declare sheet: Timesheet | null;
  declare error: string | null;
  declare loading: boolean;
  /** Whose timesheet: null for one's own. */
  declare whose: PickedMember | null;

  constructor() {
    super();
    this.monday = mondayOf(new Date());
    this.sheet = null;
    this.error = null;
    this.loading = true;
    this.whose = null;
  }

  static override styles = [
    screenStyles,
    css`
      .bar { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; margin-bottom: var(--wpk-space-3); }
      .period { font-weight: var(--wpk-font-weight-bold); margin: 0 0 var(--wpk-space-2); }
      .wrap { overflow-x: auto; }
      .wrap:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
      table { border-collapse: collapse; width: 100%; max-width: 48rem; }
      th, td { text-align: left; padding: var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); white-space: nowrap; }
      @media (max-width: 480px) { th, td { padding: var(--wpk-space-2) var(--wpk-space-1); } .count { display: none; } }
      td.number, th.number { text-align: right; white-space: nowrap; }
      tr.empty td { color: var(--wpk-color-text-muted); }
      tfoot th, tfoot td { font-weight: var(--wpk-font-weight-bold); border-bottom: none; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Timesheet');
    void this.load();
  }

  private async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    try {
      const query = { from: isoDay(this.monday), to: isoDay(addDays(this.monday, 6)), ...(this.whose ? { member_id: this.whose.id } : {}) };
      this.sheet = (await kit().client.attendance.getAttendanceTimesheets({ query })).data as Timesheet;
    } catch (error) {
      this.sheet = null;
      this.error = errorText(error);
    } finally {
      this.loading = false;
    }
  }

  private week(days: number): void {
    this.monday = days === 0 ? mondayOf(new Date()) : addDays(this.monday, days);
    void this.load();
  }

  private async pick(): Promise<void> {
    const [chosen] = await kit().bridge.pickMembers({ title: 'Whose timesheet?' });
    if (!chosen) return;
    this.whose = chosen.id === kit().member.id ? null : chosen;
    void kit().bridge.title(this.whose ? `Timesheet of ${this.whose.name}` : 'Timesheet');
    await this.load();
  }

  private table(sheet: Timesheet) {
    // A day of the week, without the year the period above already shows (a day is the same calendar day in every zone).
    const dayFormat = new Intl.DateTimeFormat(kit().locale, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
    // Scrolls sideways on a narrow screen: focusable, so the keyboard scrolls it too.
    return html`<div class="wrap" tabindex="0" role="region" aria-label="Timesheet table"><table>
      <caption class="wpk-visually-hidden">${this.whose ? `${this.whose.name}'s` : 'Your'} time, ${when(sheet.from, 'date')} to ${when(sheet.to, 'date')}</caption>
      <thead><tr><th scope="col">Day</th><th scope="col" class="number count">Clocked</th><th scope="col" class="number">Worked</th><th scope="col" class="number">Breaks</th><th scope="col" class="number">Net</th></tr></thead>
      <tbody>
        ${sheet.days.map(
          (day) => html`<tr class=${day.attendances ? '' : 'empty'}>
            <th scope="row"><time datetime=${day.date}>${dayFormat.format(new Date(`${day.date}T00:00:00Z`))}</time></th>
            <td class="number count">${day.attendances}</td>
            <td class="number">${hm(day.worked_seconds)}</td>
            <td class="number">${hm(day.break_seconds)}</td>
            <td class="number">${hm(day.net_seconds)}</td>
          </tr>`,
        )}
      </tbody>
      <tfoot><tr><th scope="row">Total</th><td class="number count">${sheet.totals.attendances}</td><td class="number">${hm(sheet.totals.worked_seconds)}</td><td class="number">${hm(sheet.totals.break_seconds)}</td><td class="number">${hm(sheet.totals.net_seconds)}</td></tr></tfoot>
    </table></div>
    <p class="muted">Times in hours and minutes; net is worked time less breaks.${sheet.open ? ' An attendance is still open: it counts up to now.' : ''}</p>`;
  }

  protected override render() {
    const sunday = addDays(this.monday, 6);
    return html`<h1>${this.whose ? `Timesheet of ${this.whose.name}` : 'My timesheet'}</h1>
      <p class="period" aria-live="polite">${when(isoDay(this.monday), 'date')} – ${when(isoDay(sunday), 'date')}</p>
      <div class="bar">
        <wa-button size="small" @click=${() => this.week(-7)}>Previous week</wa-button>
        <wa-button size="small" @click=${() => this.week(7)}>Next week</wa-button>
        <wa-button size="small" appearance="plain" @click=${() => this.week(0)}>This week</wa-button>
        <wa-button size="small" appearance="outlined" @click=${() => this.pick()}>Someone else's</wa-button>
        ${this.whose ? html`<wa-button size="small" appearance="plain" @click=${() => { this.whose = null; void this.load(); }}>Mine</wa-button>` : nothing}
      </div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.loading && !this.sheet ? html`<wa-spinner label="Loading the timesheet"></wa-spinner>` : nothing}
      ${this.sheet ? this.table(this.sheet) : nothing}`;
  }
}

customElements.define('attendance-timesheet', AttendanceTimesheet);
