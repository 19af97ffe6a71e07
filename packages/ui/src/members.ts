import { kit } from './app.js';

const MEMBER_MRN = 'mrn:account:member:';

/** The member id inside a member MRN (`mrn:account:member:{id}`); null for none or an MRN of another kind. */
export const memberIdOf = (mrn: string | null | undefined): string | null => (mrn?.startsWith(MEMBER_MRN) ? mrn.slice(MEMBER_MRN.length) : null);

/** A member's MRN (`mrn:account:member:{id}`), as records name members. */
export const memberMrn = (id: string): string => `${MEMBER_MRN}${id}`;

/** The names of these members, by member id: one request to the shell (it reads the member directory), none for no id. */
export async function memberNamesById(ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  return new Map((await kit().bridge.members(unique)).map((member) => [member.id, member.name]));
}

/** The names of the members these MRNs name, by member id (an MRN of another kind, or none, is passed over). */
export function memberNames(mrns: Array<string | null | undefined>): Promise<Map<string, string>> {
  return memberNamesById(mrns.map(memberIdOf).filter((id): id is string => id !== null));
}

/** A member's colour for carets and presence (`<wpk-collab-editor>`'s `user.color`): one of seven dark enough for white text, the same for an id everywhere. */
export function memberColor(id: string): string {
  const palette = ['#1d4ed8', '#b91c1c', '#047857', '#7c3aed', '#b45309', '#0e7490', '#be185d'];
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return palette[hash % palette.length]!;
}
