import { ConflictError, defineCopy, InvalidError, likePattern, Op } from '@wpk/sdk';
import { resource, type AttendanceBaseContext, type AttendanceContext } from '../kit.js';
import type { Location, Models } from '../models/index.js';
import { locationDocument, presentLocation } from './present.js';
import { isTimeZone } from './time.js';

/** What a create or an update of a location takes (null clears an optional field; `geofence: null` removes the fence). */
export interface LocationInput {
  name?: string;
  address?: string | null;
  geofence?: { latitude: number; longitude: number; radius_m: number } | null;
  timezone?: string | null;
}

const hasFence = (location: Location) => location.radius_m !== null;

/** The geofence's three columns are one field to a client. */
const fieldName = (column: string) => (['latitude', 'longitude', 'radius_m'].includes(column) ? 'geofence' : column);

/** The workspace's work locations: reads, the search index and the events of every write. */
export const locations = resource({
  model: 'locations',
  label: 'Location',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name', 'address'],
  search: { type: 'location', document: locationDocument },
  events: {
    created: (location, ctx) => ['core.attendance.location.created', { location_id: location.id, name: location.name, has_geofence: hasFence(location), created_by: ctx.member!.id }],
    updated: (location, changed, ctx) => ['core.attendance.location.updated', { location_id: location.id, name: location.name, has_geofence: hasFence(location), changed_fields: [...new Set(changed.map(fieldName))], updated_by: ctx.member!.id }],
    deleted: (location, ctx) => ['core.attendance.location.deleted', { location_id: location.id, name: location.name, deleted_by: ctx.member!.id }],
  },
});

/** The copy of Settings' locations (the SDK's `defineCopy`: the highest revision wins; one delivery per location at a time). */
const settingsCopy = defineCopy<Models, 'locations'>({ model: 'locations' });

/** What a `core.settings.location.*` event carries that the copy keeps. */
export interface SettingsLocationPayload {
  location_id: string;
  name: string;
  timezone: string;
  address?: { street?: string; city?: string; region?: string; postal_code?: string; country?: string };
  revision: number;
}

/** A Settings address on one line: `street, postal code city, region, country` (empty parts left out); null when empty. */
export function addressLine(address: SettingsLocationPayload['address']): string | null {
  if (!address) return null;
  const place = [address.postal_code, address.city].filter(Boolean).join(' ');
  const line = [address.street, place, address.region, address.country].filter(Boolean).join(', ');
  return line ? line.slice(0, 500) : null;
}

/** True for the copy of a Settings location. */
export const followsSettings = (location: Location) => location.source === 'settings';

/**
 * A Settings location created, changed or (`deleted`) deleted: the copy takes its name, address
 * and time zone unless it holds that revision or a later one (a repeated or late delivery changes
 * nothing); the geofence stays the app's. A deletion keeps the row as a tombstone (`deleted_at`):
 * its attendances keep their location, and a late update cannot bring it back. The app's search
 * index follows.
 */
export async function keepSettingsLocation(ctx: AttendanceBaseContext, payload: SettingsLocationPayload, deleted: boolean): Promise<void> {
  const { applied } = await settingsCopy.keep(ctx, payload.location_id, payload.revision, {
    source: 'settings',
    name: payload.name,
    address: addressLine(payload.address),
    timezone: payload.timezone,
    creator_id: null,
    deleted_at: deleted ? ctx.now() : null,
  });
  if (!applied) return;
  const row = (await ctx.db.locations.findById(payload.location_id))!;
  if (deleted) ctx.search.remove('location', row.id);
  else ctx.search.upsert(locationDocument(row));
}

/** Refuses (409) a new attendance at a location Settings deleted; `field` names the body field. */
export function assertOpen(location: Location, field = 'location_id'): void {
  if (location.deleted_at) throw new ConflictError(`${field}: ${location.name} was deleted in the Settings app: it takes no clock-ins (its past attendances stay)`, { field });
}

/** A location of the workspace, or 404. */
export function requireLocation(ctx: AttendanceContext, id: string, lock = false) {
  return locations.require(ctx, id, lock ? { lock: 'update' } : {});
}

async function assertNameFree(ctx: AttendanceContext, name: string, except: string | null): Promise<void> {
  await ctx.lock(`location-name:${name.toLowerCase()}`);
  const rows = await ctx.db.locations.findAll({ where: { name: { [Op.iLike]: likePattern(name, 'prefix') }, deleted_at: null } });
  if (rows.some((row) => row.id !== except && row.name.toLowerCase() === name.toLowerCase())) throw new ConflictError(`A location named ${name} already exists`);
}

function fields(input: LocationInput): Partial<Location> {
  const out: Partial<Location> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.address !== undefined) out.address = input.address || null;
  if (input.timezone !== undefined) {
    if (input.timezone && !isTimeZone(input.timezone)) throw new InvalidError(`timezone: ${input.timezone} is not an IANA time zone`);
    out.timezone = input.timezone || null;
  }
  if (input.geofence !== undefined) {
    out.latitude = input.geofence?.latitude ?? null;
    out.longitude = input.geofence?.longitude ?? null;
    out.radius_m = input.geofence?.radius_m ?? null;
  }
  return out;
}

/** One page of the live locations by name (own and Settings' alike; `deleted` lists the tombstones instead); `q` matches the name or the address. */
export async function listLocations(ctx: AttendanceContext, query: { q?: string; deleted?: boolean }) {
  const { rows, count } = await locations.list(ctx, { q: query.q, where: { deleted_at: query.deleted ? { [Op.ne]: null } : null } });
  return { rows: rows.map(presentLocation), count };
}

/**
 * Creates an own location (names are unique in the workspace, case-insensitively). Refused (409)
 * once the workspace's locations come from the Settings app (a Settings location has reached the
 * app): they are created there, and attendance adds its geofence to them.
 */
export async function createLocation(ctx: AttendanceContext, input: LocationInput & { name: string }) {
  await ctx.lock('locations:source');
  const followed = await ctx.db.locations.findOne({ where: { source: 'settings' }, attributes: ['id'] });
  if (followed) throw new ConflictError('This workspace keeps its locations in the Settings app: create the location there (POST /settings/locations), then set its geofence here (PATCH /attendance/locations/{id})');
  await assertNameFree(ctx, input.name, null);
  return presentLocation(await locations.create(ctx, { ...fields(input), name: input.name, creator_id: ctx.member.id }));
}

/** Updates the given fields of a location (UpdateLocation); 400 when nothing is given. */
export async function updateLocation(ctx: AttendanceContext, id: string, input: LocationInput) {
  const location = await requireLocation(ctx, id, true);
  if (followsSettings(location)) {
    const owned = (['name', 'address', 'timezone'] as const).find((field) => input[field] !== undefined);
    if (owned) throw new ConflictError(`${owned}: ${location.name} follows the Settings app; change its ${owned} there (PATCH /settings/locations/${location.id}). Attendance sets its geofence only`, { field: owned });
    if (location.deleted_at) throw new ConflictError(`${location.name} was deleted in the Settings app: its geofence can no longer change`);
  }
  const changes = fields(input);
  if (Object.keys(changes).length === 0) throw new InvalidError('Give at least one of name, address, geofence, timezone');
  if (changes.name !== undefined && changes.name.toLowerCase() !== location.name.toLowerCase()) await assertNameFree(ctx, changes.name, location.id);
  return presentLocation((await locations.patch(ctx, location, changes)).row);
}

/**
 * Deletes a location. Refused (409) while a member is clocked in there; past attendances keep
 * the location's name and lose the link.
 */
export async function deleteLocation(ctx: AttendanceContext, id: string) {
  const location = await requireLocation(ctx, id, true);
  if (followsSettings(location)) throw new ConflictError(`${location.name} follows the Settings app: delete it there (DELETE /settings/locations/${location.id}); its attendances stay`);
  const open = await ctx.db.attendances.count({ where: { location_id: id, check_out_at: null } });
  if (open > 0) throw new ConflictError(`${open} member${open === 1 ? ' is' : 's are'} clocked in at ${location.name}: clock them out first`);
  await ctx.db.attendances.update({ location_id: null }, { where: { location_id: id } });
  await locations.remove(ctx, location);
  return { id, name: location.name, deleted: true };
}
