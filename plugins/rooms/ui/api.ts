import { css, kit, type components } from '@wpk/ui';

export type Room = components['schemas']['RoomsRoom'];
export type RoomMember = components['schemas']['RoomsMember'];

/** A role as people read it. */
export const ROLES: Record<string, string> = { owner: 'Owner', moderator: 'Moderator', member: 'Member' };

/** The member id inside a member MRN. */
export const memberIdOf = (mrn: string | null | undefined): string | null => (mrn?.startsWith('mrn:account:member:') ? mrn.slice('mrn:account:member:'.length) : null);

/** The names of members by id (the shell reads the member directory). */
export async function memberNames(ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  return new Map((await kit().bridge.members(unique)).map((member) => [member.id, member.name]));
}

/** Where a room's session is joined: the app's same-origin page (browsers give a camera to no sandboxed frame). */
export const joinHref = (roomId: string): string => `/app/rooms/join.html?room=${encodeURIComponent(roomId)}`;

/** The screens' look. */
export const CARD_STYLES = css`
  ul.cards { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-3); }
  ul.cards > li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); }
  .muted { color: var(--wpk-color-text-muted); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; margin-top: var(--wpk-space-2); }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: start; padding: var(--wpk-space-1) var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); }
  .scroll { overflow-x: auto; }
  form.fields { display: grid; gap: var(--wpk-space-1); max-width: 32rem; }
  form.fields label { font-weight: var(--wpk-font-weight-bold); margin-top: var(--wpk-space-2); }
  form.fields button { justify-self: start; margin-top: var(--wpk-space-3); }
`;

/** True for the roles that may change a room and its members (the server decides; this only offers the controls). */
export const canManage = (role: Room['role']): boolean => role === 'owner' || role === 'moderator';
