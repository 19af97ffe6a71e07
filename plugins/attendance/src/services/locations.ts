import { ConflictError, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import type { Location } from '../models/index.js';
import { locationDocument } from '../search.js';
import { likePattern, type AttendanceContext } from './context.js';
import { presentLocation } from './present.js';
import { isTimeZone } from './time.js';

/** What a create or an update of a location takes (null clears an optional field; `geofence: null` removes the fence). */
export interface LocationInput {
  name?: string;
  address?: string | null;
  geofence?: { latitude: number; longitude: number; radius_m: number } | null;
  timezone?: string | null;
}

/** A location of the workspace, or 404. */
export async function requireLocation(ctx: AttendanceContext, id: string, lock = false): Promise<Location> {
  const location = await ctx.db.locations.findById(id, lock ? { lock: 'update' } : {});
  if (!location) throw new NotFoundError(`Location ${id} not found`);
  return location;
}

async function assertNameFree(ctx: AttendanceContext, name: string, except: string | null): Promise<void> {
  await ctx.lock(`location-name:${name.toLowerCase()}`);
  const rows = await ctx.db.locations.findAll({ where: { name: { [Op.iLike]: likePattern(name).slice(1, -1) } } });
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

const hasFence = (location: Location) => location.radius_m !== null;

/** One page of locations by name; `q` matches the name or the address. */
export async function listLocations(ctx: AttendanceContext, query: { q?: string }) {
  const where = query.q ? { [Op.or]: [{ name: { [Op.iLike]: likePattern(query.q) } }, { address: { [Op.iLike]: likePattern(query.q) } }] } : {};
  const { rows, count } = await ctx.db.locations.findAndCountAll({ where, order: [['name', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows: rows.map(presentLocation), count };
}

/** Creates a location (names are unique in the workspace, case-insensitively). */
export async function createLocation(ctx: AttendanceContext, input: LocationInput & { name: string }) {
  await assertNameFree(ctx, input.name, null);
  const location = await ctx.db.locations.create({ ...fields(input), name: input.name, creator_id: ctx.member.id });
  ctx.search.upsert(locationDocument(location));
  ctx.events.stage('core.attendance.location.created', { location_id: location.id, name: location.name, has_geofence: hasFence(location), created_by: ctx.member.id });
  return presentLocation(location);
}

/** Updates the given fields of a location (UpdateLocation); 400 when nothing is given. */
export async function updateLocation(ctx: AttendanceContext, id: string, input: LocationInput) {
  const location = await requireLocation(ctx, id, true);
  const changes = fields(input);
  if (Object.keys(changes).length === 0) throw new InvalidError('Give at least one of name, address, geofence, timezone');
  if (changes.name !== undefined && changes.name.toLowerCase() !== location.name.toLowerCase()) await assertNameFree(ctx, changes.name, location.id);
  const changed = Object.keys(changes).filter((key) => (changes as Record<string, unknown>)[key] !== (location as unknown as Record<string, unknown>)[key]);
  const names = [...new Set(changed.map((key) => (['latitude', 'longitude', 'radius_m'].includes(key) ? 'geofence' : key)))];
  if (names.length === 0) return presentLocation(location);
  await ctx.db.locations.update(changes, { where: { id } });
  const updated = (await ctx.db.locations.findById(id))!;
  ctx.search.upsert(locationDocument(updated));
  ctx.events.stage('core.attendance.location.updated', { location_id: id, name: updated.name, has_geofence: hasFence(updated), changed_fields: names, updated_by: ctx.member.id });
  return presentLocation(updated);
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
  await ctx.db.locations.destroy({ where: { id } });
  ctx.search.remove('location', id);
  ctx.events.stage('core.attendance.location.deleted', { location_id: id, name: location.name, deleted_by: ctx.member.id });
  return { id, name: location.name, deleted: true };
}
