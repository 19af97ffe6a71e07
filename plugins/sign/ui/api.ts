import { css, formatDate, kit, type components } from '@wpk/ui';

export type Envelope = components['schemas']['SignEnvelope'];
export type AuditEvent = components['schemas']['SignAuditEvent'];
export type Recipient = Envelope['recipients'][number];

/** How an envelope's state reads. */
export const ENVELOPE_LABELS: Record<string, string> = { draft: 'Draft', sent: 'Out for signature', completed: 'Completed', declined: 'Declined', voided: 'Voided', expired: 'Expired' };

/** How a recipient's state reads. */
export const RECIPIENT_LABELS: Record<string, string> = { pending: 'Waiting for their turn', notified: 'Notified', viewed: 'Viewed', signed: 'Signed', declined: 'Declined' };

/** How a step of the audit trail reads. */
export const STEP_LABELS: Record<string, string> = {
  created: 'Prepared', updated: 'Changed', sent: 'Sent', notified: 'Notified', viewed: 'Viewed', code_sent: 'Code mailed', signed: 'Signed', approved: 'Approved',
  declined: 'Declined', voided: 'Voided', expired: 'Expired', reminded: 'Reminded', completed: 'Completed', sealed: 'Sealed',
};

/** One call of the app's API, answering its `data`. */
export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, query?: Record<string, unknown>): Promise<T> {
  const answer = await kit().client.request<{ data: T }>(method, path, { ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });
  return answer.data;
}

/** A file's bytes in base64. */
export async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/** The screens' shared look. */
export const SIGN_STYLES = css`
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: start; padding: var(--wpk-space-1) var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); vertical-align: top; }
  .muted { color: var(--wpk-color-text-muted); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-block: var(--wpk-space-3); }
  fieldset { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); margin-block: var(--wpk-space-3); min-width: 0; }
  legend { font-weight: var(--wpk-font-weight-bold); padding-inline: var(--wpk-space-1); }
  label { display: flex; flex-direction: column; gap: var(--wpk-space-1); }
  .row { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; }
  .row > label { flex: 1 1 8rem; min-width: 0; }
  input, select, textarea { font: inherit; padding: var(--wpk-space-1) var(--wpk-space-2); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-s); background: var(--wpk-color-surface); color: var(--wpk-color-text); max-width: 100%; box-sizing: border-box; }
  button { font: inherit; padding: var(--wpk-space-1) var(--wpk-space-3); border-radius: var(--wpk-radius-s); border: 1px solid var(--wpk-color-border-strong); background: var(--wpk-color-surface-raised); color: var(--wpk-color-text); cursor: pointer; }
  button.primary { background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); border-color: var(--wpk-color-brand-fill); }
  .table-wrap { overflow-x: auto; }
  .link { overflow-wrap: anywhere; font-family: var(--wpk-font-mono); font-size: var(--wpk-font-size-xs); }
`;

/** An instant in the member's locale and time zone. */
export const when = (iso: string, style: 'date' | 'datetime' = 'datetime'): string => formatDate(iso, { locale: kit().locale, timeZone: kit().timeZone, style });
