import { ConflictError, likePattern, Op } from '@wpk/sdk';
import { resource, type SettingsBaseContext, type SettingsContext } from '../kit.js';
import type { Location, LocationAddress } from '../models/index.js';
import { locationDocument, locationMrn, locationPayload } from './present.js';
import { timeZone } from './values.js';

/** What a create or an update may set; `address: null` clears it. */
export interface LocationInput {
  name?: string;
  address?: LocationAddress | null;
  timezone?: string;
}

/** Locations of the workspace: reads, the search index and the events of every write. */
export const locations = resource({
  model: 'locations',
  label: 'Location',
  order: [['name', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name'],
  search: { type: 'location', document: locationDocument },
  events: {
    created: (location, ctx) => ['core.settings.location.created', { ...locationPayload(location), created_by: ctx.member!.id }],
    updated: (location, changed, ctx) => ['core.settings.location.updated', { ...locationPayload(location), changed_fields: changed, updated_by: ctx.member!.id }],
    deleted: (location, ctx) => ['core.settings.location.deleted', { ...locationPayload(location, location.revision + 1), deleted_by: ctx.member!.id }],
  },
});

/** An address with its parts trimmed and the empty ones dropped. */
function cleanAddress(address: LocationAddress | null | undefined): LocationAddress {
  const parts = Object.entries(address ?? {}).map(([part, value]) => [part, typeof value === 'string' ? value.trim() : '']);
  return Object.fromEntries(parts.filter(([, value]) => value !== '')) as LocationAddress;
}

/** Refuses a name another location of the workspace has (ignoring case), under a lock on the name. */
export async function assertNameFree(ctx: SettingsContext, model: 'locations' | 'calendars', label: string, name: string, exceptId: string | null): Promise<void> {
  await ctx.lock(`${model}:${name.toLowerCase()}`);
  const rows = await ctx.db[model].findAll({ where: { name: { [Op.iLike]: likePattern(name, 'exact') }, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  const clash = rows.find((row) => row.name.toLowerCase() === name.toLowerCase());
  if (clash) throw new ConflictError(`${label} ${clash.id} is already named ${clash.name}`);
}

/** One page of the workspace's locations by name; `q` matches the name. */
export function listLocations(ctx: SettingsContext, q?: string) {
  return locations.list(ctx, { q });
}

/** Creates a location. Emits `location.created`. */
export async function createLocation(ctx: SettingsContext, input: LocationInput & { name: string; timezone: string }): Promise<Location> {
  const timezone = timeZone(input.timezone, 'timezone');
  await assertNameFree(ctx, 'locations', 'Location', input.name, null);
  return locations.create(ctx, { name: input.name, address: cleanAddress(input.address), timezone });
}

/** Changes the given fields of a location; when something changed, counts a revision and emits `location.updated` with `changed_fields`. */
export async function updateLocation(ctx: SettingsContext, locationId: string, input: LocationInput): Promise<Location> {
  const location = await locations.require(ctx, locationId, { lock: 'update' });
  const next = {
    name: input.name ?? location.name,
    address: input.address === undefined ? location.address : cleanAddress(input.address),
    timezone: input.timezone === undefined ? location.timezone : timeZone(input.timezone, 'timezone'),
  };
  if (next.name !== location.name) await assertNameFree(ctx, 'locations', 'Location', next.name, location.id);
  return (await locations.patch(ctx, location, next, { touch: (before) => ({ revision: before.revision + 1 }) })).row;
}

/** Deletes a location. Emits `location.deleted` (copies drop it). */
export async function deleteLocation(ctx: SettingsContext, locationId: string) {
  const location = await locations.remove(ctx, locationId);
  return { id: location.id, mrn: locationMrn(location.id), deleted: true };
}

/**
 * Announces each live location (`location.announced`, its current revision) after an app is
 * installed: a copy kept from Settings' events missed every location made before its app was
 * installed, and an announcement is what a copy applies unless it already holds that revision.
 * Nothing is announced for Settings' own installation. Returns how many were announced.
 */
export async function announceLocations(ctx: SettingsBaseContext, appSlug: string): Promise<number> {
  if (appSlug === 'settings') return 0;
  let announced = 0;
  for await (const location of locations.walk(ctx)) {
    ctx.events.stage('core.settings.location.announced', { ...locationPayload(location), for_app: appSlug });
    announced += 1;
  }
  return announced;
}
