/** Mean Earth radius in metres (IUGG), the radius the haversine formula is usually given with. */
export const EARTH_RADIUS_M = 6_371_008.8;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance in metres between two points (haversine formula). */
export function haversineMetres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A geofence: a circle of `radius_m` metres around a centre. */
export interface Fence {
  latitude: number;
  longitude: number;
  radius_m: number;
}

/** The verdict on a reported position against a fence. */
export type FenceVerdict = { inside: true; distance_m: number } | { inside: false; distance_m: number; reason: 'outside' | 'imprecise' };

/**
 * The accuracy rule: a position is accepted when its accuracy circle reaches the fence
 * (distance − accuracy ≤ radius), as long as the accuracy is no worse than `maxAccuracy` metres;
 * a position without an accuracy is taken as exact. A device that is unsure where it is cannot
 * claim to be inside by being vague: past `maxAccuracy` it is refused whatever the distance.
 */
export function judgePosition(fence: Fence, position: { latitude: number; longitude: number; accuracy_m?: number }, maxAccuracy: number): FenceVerdict {
  const distance = haversineMetres(fence, position);
  const distance_m = Math.round(distance * 10) / 10;
  const accuracy = position.accuracy_m ?? 0;
  if (accuracy > maxAccuracy) return { inside: false, distance_m, reason: 'imprecise' };
  if (distance - accuracy <= fence.radius_m) return { inside: true, distance_m };
  return { inside: false, distance_m, reason: 'outside' };
}
