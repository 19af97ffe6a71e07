import { cardStyles, kit, type components } from '@wpk/ui';

export type Call = components['schemas']['CallsCall'];
export type Recording = components['schemas']['CallsRecording'];

/** A recording's state as people read it. */
export const RECORDING_STATUSES: Record<string, string> = { uploading: 'Recording', ready: 'Ready', aborted: 'Aborted' };

/** Seconds as m:ss (h:mm:ss past an hour). */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const clock = `${Math.floor(seconds / 60) % 60}:${String(seconds % 60).padStart(2, '0')}`;
  return seconds >= 3600 ? `${Math.floor(seconds / 3600)}:${clock.padStart(5, '0')}` : clock;
}

let held: Promise<Set<string>> | null = null;

/** The member's own keys in the app (`GET /calls/me/permissions`, read once per page): the screens offer only what these allow. */
export function myKeys(): Promise<Set<string>> {
  held ??= kit()
    .client.calls.getCallsMePermissions()
    .then((answer) => new Set((answer.data as { keys: string[] }).keys))
    .catch(() => new Set<string>());
  return held;
}

/** A call's state as people read it. */
export const STATUSES: Record<string, string> = { waiting: 'Not started', active: 'Under way', ended: 'Ended', cancelled: 'Cancelled' };

/** Where a call is joined: the app's same-origin page (browsers give a camera to no sandboxed frame). */
export const joinHref = (callId: string): string => `/app/calls/join.html?call=${encodeURIComponent(callId)}`;

/** The screens' look: the kit's cards, tables and forms. */
export const CARD_STYLES = cardStyles;
