/**
 * Identifiers are strings (specification, Resources › Conventions): a route takes an id of any
 * shape and answers 404 when nothing has it. Records the platform creates use UUIDs, so a look-up
 * first asks `isUuid` and treats anything else as not found, instead of sending PostgreSQL a
 * value its uuid type would refuse.
 */

/** The longest id a route takes; a longer one is refused as too long rather than looked up. */
export const MAX_ID_LENGTH = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID string (the shape of every id the platform and its apps create). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
