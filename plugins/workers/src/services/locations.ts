import { defineCopy, InvalidError, likePattern, Op } from '@wpk/sdk';
import type { WorkersBaseContext } from '../kit.js';
import type { LocationCopy, Models } from '../models/index.js';

/** The copy of Settings' locations (the SDK's `defineCopy`: the highest revision wins; one delivery per location at a time). */
const locationCopy = defineCopy<Models, 'locations'>({ model: 'locations' });

/** What a `core.settings.location.*` event carries that the copy keeps. */
export interface LocationPayload {
  location_id: string;
  mrn: string;
  name: string;
  timezone: string;
  revision: number;
}

/** `mrn:settings:location:{id}`. */
export const locationMrn = (id: string): string => `mrn:settings:location:${id}`;

/** The location id of `mrn:settings:location:{id}`, or null (not a settings location MRN with a UUID). */
export function locationIdOf(mrn: string): string | null {
  const match = /^mrn:settings:location:([0-9a-f-]{36})$/i.exec(mrn);
  return match ? match[1].toLowerCase() : null;
}

/**
 * A location created, changed or (`deleted`) deleted in Settings: the copy follows unless it holds
 * that revision or a later one (a repeated or late delivery changes nothing). A rename reaches the
 * name its workers show; a deletion keeps the row as a tombstone and leaves the workers naming it
 * as they are (their history), though no worker may be given it anew.
 */
export async function keepLocation(ctx: WorkersBaseContext, payload: LocationPayload, deleted: boolean): Promise<void> {
  const { applied } = await locationCopy.keep(ctx, payload.location_id, payload.revision, { name: payload.name, timezone: payload.timezone, deleted });
  if (applied) await ctx.db.workers.update({ location_name: payload.name }, { where: { location_mrn: locationMrn(payload.location_id) } });
}

/**
 * The location a worker is given: its MRN (as the copy spells it) and name; 400 naming `field`
 * when the copy does not know it or it was deleted in Settings. `null` clears it.
 */
export async function resolveLocation(ctx: WorkersBaseContext, mrn: string | null, field = 'location_mrn'): Promise<{ location_mrn: string | null; location_name: string | null }> {
  if (mrn === null) return { location_mrn: null, location_name: null };
  const id = locationIdOf(mrn);
  const location = id ? await ctx.db.locations.findById(id) : null;
  if (!location) throw new InvalidError(`${field}: ${mrn} is no location of the Settings app`, { field });
  if (location.deleted) throw new InvalidError(`${field}: ${mrn} (${location.name}) was deleted in the Settings app`, { field });
  return { location_mrn: locationMrn(location.id), location_name: location.name };
}

/** The live locations of the copy by name (`q` matches the name): what a worker may be given. */
export function listLocations(ctx: WorkersBaseContext & { page?: { offset: number; limit: number } }, q?: string): Promise<{ rows: LocationCopy[]; count: number }> {
  const page = ctx.page ?? { offset: 0, limit: 25 };
  return ctx.db.locations.findAndCountAll({
    where: { deleted: false, ...(q ? { name: { [Op.iLike]: likePattern(q) } } : {}) },
    order: [['name', 'ASC'], ['id', 'ASC']],
    offset: page.offset,
    limit: page.limit,
  });
}

/** A location of the copy as `GET /workers/locations` answers it. */
export function presentLocation(location: LocationCopy) {
  return { id: location.id, mrn: locationMrn(location.id), name: location.name, timezone: location.timezone };
}
