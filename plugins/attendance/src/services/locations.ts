import { ConflictError, InvalidError, likePattern, Op } from '@wpk/sdk';
import { resource, type AttendanceContext } from '../kit.js';
import type { Location } from '../models/index.js';
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

/** A location of the workspace, or 404. */
export function requireLocation(ctx: AttendanceContext, id: string, lock = false) {
  return locations.require(ctx, id, lock ? { lock: 'update' } : {});
}

async function assertNameFree(ctx: AttendanceContext, name: string, except: string | null): Promise<void> {
  await ctx.lock(`location-name:${name.toLowerCase()}`);
  const rows = await ctx.db.locations.findAll({ where: { name: { [Op.iLike]: likePattern(name, 'prefix') } } });
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

/** One page of locations by name; `q` matches the name or the address. */
export async function listLocations(ctx: AttendanceContext, query: { q?: string }) {
  const { rows, count } = await locations.list(ctx, { q: query.q });
  return { rows: rows.map(presentLocation), count };
}

/** Creates a location (names are unique in the workspace, case-insensitively). */
export async function createLocation(ctx: AttendanceContext, input: LocationInput & { name: string }) {
  await assertNameFree(ctx, input.name, null);
  return presentLocation(await locations.create(ctx, { ...fields(input), name: input.name, creator_id: ctx.member.id }));
}

/** Updates the given fields of a location (UpdateLocation); 400 when nothing is given. */
export async function updateLocation(ctx: AttendanceContext, id: string, input: LocationInput) {
  const location = await requireLocation(ctx, id, true);
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
  const open = await ctx.db.attendances.count({ where: { location_id: id, check_out_at: null } });
  if (open > 0) throw new ConflictError(`${open} member${open === 1 ? ' is' : 's are'} clocked in at ${location.name}: clock them out first`);
  await ctx.db.attendances.update({ location_id: null }, { where: { location_id: id } });
  await locations.remove(ctx, location);
  return { id, name: location.name, deleted: true };
}
