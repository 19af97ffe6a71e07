import { LitElement, appLink, confirmAction, css, errorText, html, kit, navigate, screenStyles, toast, type FormSchema, type RowAction, type TableColumn, type WpkDataTable, type WpkSchemaForm } from '@wpk/ui';
import { dayNames, type Calendar, type Holiday } from '../api.js';
import { CALENDAR_FORM, calendarBody, calendarValue } from './calendars.js';

const HOLIDAY_FORM: FormSchema = {
  required: ['date', 'name'],
  properties: { date: { type: 'string', title: 'Date', format: 'date' }, name: { type: 'string', title: 'Holiday', minLength: 1, maxLength: 200 } },
};

/** The import form: a region and a year (this one by default). */
const IMPORT_FORM: FormSchema = {
  required: ['region', 'year'],
  properties: {
    region: { type: 'string', title: 'Region', minLength: 2, maxLength: 20, description: 'A country or a country and subdivision, such as DE or DE-BY.' },
    year: { type: 'integer', title: 'Year', minimum: 1900, maximum: 2200 },
  },
};

/** `/calendars/{id}`: a working calendar, its holidays (added by hand or imported for a region and year), its form and its delete. */
export class SettingsCalendar extends LitElement {
  static override properties = { calendarId: { attribute: false }, calendar: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`section { margin-top: var(--wpk-space-5); } .forms { display: grid; gap: var(--wpk-space-4); grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); }`];
  declare calendarId: string;
  declare calendar: Calendar | null;
  declare error: string | null;

  constructor() {
    super();
    this.calendarId = '';
    this.calendar = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const calendar = (await kit().client.settings.getSettingsCalendarsByCalendarId({ params: { calendar_id: this.calendarId } })).data;
      this.calendar = calendar;
      void kit().bridge.title(calendar.name);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private get holidays(): WpkDataTable<Holiday> {
    return this.renderRoot.querySelector('wpk-data-table') as unknown as WpkDataTable<Holiday>;
  }

  /** Runs a form's request; on success tells the person and shows the holidays again. */
  private async submit(event: CustomEvent<Record<string, unknown>>, send: (values: Record<string, unknown>) => Promise<string>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      toast(await send(event.detail), 'success');
      form.submitting = false;
      this.holidays.reload();
    } catch (error) {
      form.fail(error);
    }
  }

  private async addHoliday(values: Record<string, unknown>): Promise<string> {
    const holiday = (await kit().client.settings.postSettingsCalendarsByCalendarIdHolidays({ params: { calendar_id: this.calendarId }, body: values as never })).data;
    return `${holiday.name} added`;
  }

  private async importHolidays(values: Record<string, unknown>): Promise<string> {
    const result = (await kit().client.settings.postSettingsCalendarsByCalendarIdHolidaysImport({ params: { calendar_id: this.calendarId }, body: values as never })).data;
    return `${result.created.length} holidays of ${result.region} in ${result.year} imported, ${result.skipped} already there`;
  }

  private async save(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      this.calendar = (await kit().client.settings.patchSettingsCalendarsByCalendarId({ params: { calendar_id: this.calendarId }, body: calendarBody(event.detail) as never })).data;
      form.submitting = false;
      toast(`${this.calendar.name} saved`, 'success');
    } catch (error) {
      form.fail(error);
    }
  }

  private async removeHoliday(holiday: Holiday): Promise<void> {
    try {
      await kit().client.settings.deleteSettingsCalendarsByCalendarIdHolidaysByHolidayId({ params: { calendar_id: this.calendarId, holiday_id: holiday.id } });
      toast(`${holiday.name} removed`, 'success');
      this.holidays.reload();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async deleteCalendar(calendar: Calendar): Promise<void> {
    if (!(await confirmAction({ title: `Delete ${calendar.name}?`, message: 'Its holidays go with it.', confirm_label: 'Delete calendar', danger: true }))) return;
    try {
      await kit().client.settings.deleteSettingsCalendarsByCalendarId({ params: { calendar_id: calendar.id } });
      toast(`${calendar.name} deleted`, 'success');
      await navigate('/calendars', { replace: true });
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const back = html`<p class="back">${appLink('/calendars', '← All calendars')}</p>`;
    if (this.error) return html`${back}<p class="error" role="alert">${this.error}</p>`;
    const calendar = this.calendar;
    if (!calendar) return html`<wa-spinner label="Loading the calendar"></wa-spinner>`;
    const columns: TableColumn<Holiday>[] = [
      { key: 'date', label: 'Date' },
      { key: 'name', label: 'Holiday' },
      { key: 'source', label: 'Source', render: (holiday) => (holiday.source === 'import' ? 'Imported' : 'Added by hand') },
    ];
    const actions: RowAction<Holiday>[] = [{ label: 'Remove', danger: true, run: (holiday) => this.removeHoliday(holiday) }];
    const year = new Date().getFullYear();
    return html`${back}<h1>${calendar.name}</h1>
      <p class="muted">${dayNames(calendar.working_days)} · ${calendar.hours_per_day} hours a day${calendar.region ? ` · holidays of ${calendar.region}` : ''}</p>
      <section aria-labelledby="holidays"><h2 id="holidays">Holidays</h2>
        <wpk-data-table caption=${`Holidays of ${calendar.name}`} .source=${`/settings/calendars/${calendar.id}/holidays`} .columns=${columns} .actions=${actions}
          empty="No holiday yet: import a region's public holidays or add one."></wpk-data-table>
        <div class="forms">
          <div><h3>Import public holidays</h3>
            <wpk-schema-form .schema=${IMPORT_FORM} .value=${{ region: calendar.region ?? '', year }} submit-label="Import holidays"
              @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.submit(event, (values) => this.importHolidays(values))}></wpk-schema-form></div>
          <div><h3>Add a holiday</h3>
            <wpk-schema-form .schema=${HOLIDAY_FORM} .value=${{}} submit-label="Add holiday"
              @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.submit(event, (values) => this.addHoliday(values))}></wpk-schema-form></div>
        </div>
      </section>
      <section aria-labelledby="edit"><h2 id="edit">Working time</h2>
        <wpk-schema-form .schema=${CALENDAR_FORM} .value=${calendarValue(calendar)} submit-label="Save calendar" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.save(event)}></wpk-schema-form>
        <p><wa-button variant="danger" appearance="outlined" @click=${() => this.deleteCalendar(calendar)}>Delete calendar</wa-button></p>
      </section>`;
  }
}

customElements.define('settings-calendar', SettingsCalendar);
