import { errorText, fieldOfError, formatDate, html, kit, nothing, type DateStyle, type components } from '@wpk/ui';

/** An attendance (one stretch of work, open until the clock-out). */
export type Attendance = NonNullable<components['schemas']['AttendanceAttendance']>;
/** An attendance with its audit trail. */
export type AttendanceWithCorrections = components['schemas']['AttendanceAttendanceWithCorrections'];
export type Correction = components['schemas']['AttendanceCorrection'];
export type Location = components['schemas']['AttendanceLocation'];
export type Status = components['schemas']['AttendanceStatus'];
export type Timesheet = components['schemas']['AttendanceTimesheet'];

/** An instant or a day in the member's locale and time zone. */
export function when(value: string, style: DateStyle = 'datetime'): string {
  const { locale, timeZone } = kit();
  return formatDate(value, { locale, timeZone, style });
}

/** Seconds as hours and minutes: `7 h 05 min`, `0 min`. */
export function duration(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as a `datetime-local` input shows it (the browser's zone, which is the member's: the shell's). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value as an ISO instant (null when empty). */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A calendar day `YYYY-MM-DD` of a local date. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Every location (they are few: all pages). */
export async function allLocations(): Promise<Location[]> {
  const locations: Location[] = [];
  for await (const location of kit().client.paginate('getAttendanceLocations', { query: { per_page: 100 } })) locations.push(location as Location);
  return locations;
}

/** A refusal split for a form: on the field it names (its `field`, else its message's first word: `check_out_at must be after check_in_at`), else for the whole form. */
export function refusalFor(error: unknown, fields: readonly string[]): { field: string | null; message: string } {
  const message = errorText(error);
  return { field: fieldOfError(error, fields), message };
}

/** The hint slot of a field: its refusal, else its help. */
export function hint(refusal: { field: string | null; message: string } | null, field: string, help?: string) {
  if (refusal?.field === field) return html`<span slot="hint" class="error">${refusal.message}</span>`;
  return help ? html`<span slot="hint">${help}</span>` : nothing;
}
