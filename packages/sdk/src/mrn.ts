/**
 * MRNs name a resource across apps: `mrn:{app}:{resource}:{id}`. Members are
 * `mrn:account:member:{id}`. Every app uses these helpers so the shape never drifts.
 */

/** The parts of an MRN. */
export interface Mrn {
  app: string;
  resource: string;
  id: string;
}

const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/;

/** Formats an MRN from its parts; throws on a part that would make it ambiguous. */
export function formatMrn(app: string, resource: string, id: string): string {
  for (const [name, value] of [['app', app], ['resource', resource]] as const) {
    if (!SEGMENT.test(value)) throw new TypeError(`MRN ${name} must match ${SEGMENT}: ${JSON.stringify(value)}`);
  }
  if (id.length === 0 || id.includes(':')) throw new TypeError(`MRN id must be non-empty and contain no ':': ${JSON.stringify(id)}`);
  return `mrn:${app}:${resource}:${id}`;
}

/** Parses an MRN; returns null when the string is not one. */
export function parseMrn(value: string): Mrn | null {
  const parts = value.split(':');
  if (parts.length !== 4 || parts[0] !== 'mrn') return null;
  const [, app, resource, id] = parts;
  if (!SEGMENT.test(app) || !SEGMENT.test(resource) || id.length === 0) return null;
  return { app, resource, id };
}

/** The MRN of a workspace member. */
export function memberMrn(memberId: string): string {
  return formatMrn('account', 'member', memberId);
}

/** The member id inside a member MRN, or null when the MRN names something else. */
export function memberIdFromMrn(value: string): string | null {
  const mrn = parseMrn(value);
  return mrn && mrn.app === 'account' && mrn.resource === 'member' ? mrn.id : null;
}
