import type { SearchDocument, SearchHooks } from '@wpk/sdk';
import type { Location, Models } from './models/index.js';

/** The search document of a location: found by name; the address as detail. */
export function locationDocument(location: Location): SearchDocument {
  return {
    type: 'location',
    id: location.id,
    title: location.name,
    subtitle: location.address || (location.radius_m !== null ? `Geofence ${location.radius_m} m` : 'Work location'),
    url: `/attendance/locations/${location.id}`,
    names: [location.name],
    details: [location.address ?? ''],
  };
}

/** Full re-index of a workspace: every location. */
export const search: Record<string, SearchHooks<Models>> = {
  location: {
    async reindex(ctx) {
      return (await ctx.db.locations.findAll({ order: [['created_at', 'ASC'], ['id', 'ASC']] })).map(locationDocument);
    },
  },
};
