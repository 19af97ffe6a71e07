import { LitElement, appLink, css, html, kit, navigate, screenStyles, toast, type FormSchema, type TableColumn, type WpkSchemaForm } from '@wpk/ui';
import { WEEKDAYS, dayNames, type Calendar } from '../api.js';

/** The form of a working calendar: the bounds are the API's; each weekday a checkbox. */
export const CALENDAR_FORM: FormSchema = {
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
    hours_per_day: { type: 'number', title: 'Hours per day', minimum: 0.25, maximum: 24 },
    region: { type: 'string', title: 'Holiday region', maxLength: 20, description: 'A country or a country and subdivision, such as DE or DE-BY.' },
    ...Object.fromEntries(WEEKDAYS.map((day, index) => [`day_${index + 1}`, { type: 'boolean', title: `Works on ${day}` }])),
  },
};

/** What the calendar form shows of a calendar (a new one: Monday to Friday, 8 hours). */
export function calendarValue(calendar: Calendar | null): Record<string, unknown> {
  const days = calendar?.working_days ?? [1, 2, 3, 4, 5];
  return { name: calendar?.name ?? '', hours_per_day: calendar?.hours_per_day ?? 8, region: calendar?.region ?? '', ...Object.fromEntries(WEEKDAYS.map((_, index) => [`day_${index + 1}`, days.includes(index + 1)])) };
}

/** The request body of the calendar form. */
export function calendarBody(values: Record<string, unknown>): Record<string, unknown> {
  return {
    name: String(values.name ?? '').trim(),
    ...(values.hours_per_day === undefined || values.hours_per_day === '' ? {} : { hours_per_day: values.hours_per_day }),
    region: String(values.region ?? '').trim() || null,
    working_days: WEEKDAYS.map((_, index) => index + 1).filter((day) => values[`day_${day}`] === true),
  };
}

/** `/calendars`: the working calendars, and a form to add one. */
export class SettingsCalendars extends LitElement {
  static override styles = [screenStyles, css`section { margin-top: var(--wpk-space-5); }`];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Working calendars');
  }

  private async add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      const calendar = (await kit().client.settings.postSettingsCalendars({ body: calendarBody(event.detail) as never })).data;
      toast(`${calendar.name} added`, 'success');
      await navigate(`/calendars/${calendar.id}`);
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    const columns: TableColumn<Calendar>[] = [
      { key: 'name', label: 'Calendar', render: (calendar) => appLink(`/calendars/${calendar.id}`, calendar.name) },
      { key: 'working_days', label: 'Working days', render: (calendar) => dayNames(calendar.working_days) },
      { key: 'hours_per_day', label: 'Hours a day', render: (calendar) => String(calendar.hours_per_day) },
      { key: 'region', label: 'Holiday region', render: (calendar) => calendar.region ?? '' },
    ];
    return html`<h1>Working calendars</h1>
      <wpk-data-table caption="The workspace's working calendars" .source=${'/settings/calendars'} .columns=${columns} empty="No calendar yet: add the first one below."></wpk-data-table>
      <section aria-labelledby="add"><h2 id="add">Add a calendar</h2>
        <wpk-schema-form .schema=${CALENDAR_FORM} .value=${calendarValue(null)} submit-label="Add calendar" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>
      </section>`;
  }
}

customElements.define('settings-calendars', SettingsCalendars);
