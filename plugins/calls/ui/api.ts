import { cardStyles, type components } from '@wpk/ui';

export type Call = components['schemas']['CallsCall'];

/** A call's state as people read it. */
export const STATUSES: Record<string, string> = { waiting: 'Not started', active: 'Under way', ended: 'Ended', cancelled: 'Cancelled' };

/** Where a call is joined: the app's same-origin page (browsers give a camera to no sandboxed frame). */
export const joinHref = (callId: string): string => `/app/calls/join.html?call=${encodeURIComponent(callId)}`;

/** The screens' look: the kit's cards, tables and forms. */
export const CARD_STYLES = cardStyles;
