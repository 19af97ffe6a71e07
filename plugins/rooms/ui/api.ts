import { cardStyles, type components } from '@wpk/ui';

export type Room = components['schemas']['RoomsRoom'];
export type RoomMember = components['schemas']['RoomsMember'];

/** A role as people read it. */
export const ROLES: Record<string, string> = { owner: 'Owner', moderator: 'Moderator', member: 'Member' };

/** Where a room's session is joined: the app's same-origin page (browsers give a camera to no sandboxed frame). */
export const joinHref = (roomId: string): string => `/app/rooms/join.html?room=${encodeURIComponent(roomId)}`;

/** The screens' look: the kit's cards, tables and forms. */
export const CARD_STYLES = cardStyles;

/** True for the roles that may change a room and its members (the server decides; this only offers the controls). */
export const canManage = (role: Room['role']): boolean => role === 'owner' || role === 'moderator';
