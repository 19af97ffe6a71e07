import { css, kit, type components } from '@wpk/ui';

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

/** The member id inside a member MRN. */
export const memberIdOf = (mrn: string | null | undefined): string | null => (mrn?.startsWith('mrn:account:member:') ? mrn.slice('mrn:account:member:'.length) : null);

/** The names of the members these MRNs name, by member id (the shell reads the member directory). */
export async function memberNames(mrns: Array<string | null | undefined>): Promise<Map<string, string>> {
  const ids = [...new Set(mrns.map(memberIdOf).filter((id): id is string => id !== null))];
  if (!ids.length) return new Map();
  return new Map((await kit().bridge.members(ids)).map((member) => [member.id, member.name]));
}

/** Where a call is joined: the app's same-origin page (browsers give a camera to no sandboxed frame). */
export const joinHref = (callId: string): string => `/app/calls/join.html?call=${encodeURIComponent(callId)}`;

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
