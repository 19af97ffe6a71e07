import { errorText, type FormSchema, type components } from '@wpk/ui';

export type Organization = components['schemas']['SettingsOrganization'];
export type Location = components['schemas']['SettingsLocation'];
export type Calendar = components['schemas']['SettingsCalendar'];
export type Holiday = components['schemas']['SettingsHoliday'];
export type HolidayImport = components['schemas']['SettingsHolidayImport'];
export type Preferences = components['schemas']['SettingsPreferences'];
export type Explanation = components['schemas']['SettingsAccessExplanation'];

/** The weekdays as the API numbers them (ISO: 1 = Monday). */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** `1,2,3,4,5` as `Mon–Fri`-like text: the days' short names. */
export function dayNames(days: number[]): string {
  return days.map((day) => WEEKDAYS[day - 1]).join(' ');
}

/** The address parts of a location form (fields of their own, sent as `address`). */
export const ADDRESS_FIELDS = ['street', 'postal_code', 'city', 'region', 'country'] as const;

/** The form of a location: the bounds are the API's. */
export const LOCATION_FORM: FormSchema = {
  required: ['name', 'timezone'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 200 },
    timezone: { type: 'string', title: 'Time zone', maxLength: 100, description: 'An IANA time zone, such as Europe/Berlin.' },
    street: { type: 'string', title: 'Street', maxLength: 200 },
    postal_code: { type: 'string', title: 'Postal code', maxLength: 20 },
    city: { type: 'string', title: 'City', maxLength: 100 },
    region: { type: 'string', title: 'Region', maxLength: 100 },
    country: { type: 'string', title: 'Country', maxLength: 100 },
  },
};

/** The request body of a location form: name, time zone and the address whole. */
export function locationBody(values: Record<string, unknown>): Record<string, unknown> {
  const text = (name: string) => String(values[name] ?? '').trim();
  return { name: text('name'), timezone: text('timezone'), address: Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(field) || null])) };
}

/** A refusal about `address.city` belongs on the City field: the form's fields are the address's parts. */
export function addressRefusal(error: unknown): unknown {
  const message = errorText(error);
  return message.startsWith('address.') ? new Error(message.slice('address.'.length)) : error;
}
