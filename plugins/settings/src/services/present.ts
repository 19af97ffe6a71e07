import { formatMrn, type SearchDocument } from '@wpk/sdk';
import type { Calendar, Holiday, Location, LocationAddress } from '../models/index.js';

/** The MRN other apps reference a location by: `mrn:settings:location:{id}`. */
export function locationMrn(locationId: string): string {
  return formatMrn('settings', 'location', locationId);
}

/** An address with every part present (`null` when empty). */
function fullAddress(address: LocationAddress) {
  return {
    street: address.street ?? null,
    city: address.city ?? null,
    region: address.region ?? null,
    postal_code: address.postal_code ?? null,
    country: address.country ?? null,
  };
}

/** How a location looks in API answers. */
export function presentLocation(location: Location) {
  return {
    id: location.id,
    mrn: locationMrn(location.id),
    name: location.name,
    address: fullAddress(location.address),
    timezone: location.timezone,
    created_at: location.created_at,
    updated_at: location.updated_at,
  };
}

/**
 * The payload of every `core.settings.location.*` event: what a copy (workers', attendance's) keeps,
 * with the revision that orders deliveries (`revision`: the deletion's is one more than the last change's).
 */
export function locationPayload(location: Location, revision = location.revision) {
  return { location_id: location.id, mrn: locationMrn(location.id), name: location.name, timezone: location.timezone, address: fullAddress(location.address), revision };
}

/** The search document of a location: found by name and city. */
export function locationDocument(location: Location): SearchDocument {
  const place = [location.address.city, location.address.country].filter(Boolean).join(', ');
  return {
    type: 'location',
    id: location.id,
    title: location.name,
    subtitle: [place, location.timezone].filter(Boolean).join(' · '),
    url: `/settings/locations/${location.id}`,
    names: [location.name],
    details: [location.address.street ?? '', location.address.city ?? '', location.address.country ?? '', location.timezone],
  };
}

/** How a working calendar looks in API answers. */
export function presentCalendar(calendar: Calendar) {
  return {
    id: calendar.id,
    name: calendar.name,
    working_days: calendar.working_days,
    hours_per_day: calendar.hours_per_day,
    region: calendar.region,
    created_at: calendar.created_at,
    updated_at: calendar.updated_at,
  };
}

/** How a holiday looks in API answers. */
export function presentHoliday(holiday: Holiday) {
  return { id: holiday.id, calendar_id: holiday.calendar_id, date: holiday.date, name: holiday.name, source: holiday.source, created_at: holiday.created_at };
}

/** The payload of `core.settings.holiday.created|deleted`. */
export function holidayPayload(holiday: Holiday) {
  return { holiday_id: holiday.id, calendar_id: holiday.calendar_id, date: holiday.date, name: holiday.name, source: holiday.source };
}
