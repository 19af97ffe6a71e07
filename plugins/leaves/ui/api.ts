import { css, kit, type components } from '@wpk/ui';

export type LeaveType = components['schemas']['LeavesType'];
export type LeaveRequest = components['schemas']['LeavesRequest'];
export type Balance = components['schemas']['LeavesBalance'];
export type Absence = components['schemas']['LeavesAbsence'];

/** How a half reads. */
export const HALF_LABELS: Record<string, string> = { am: 'Morning', pm: 'Afternoon' };

/** How a state reads. */
export const STATUS_LABELS: Record<string, string> = { draft: 'Draft', submitted: 'Waiting for approval', approved: 'Approved', refused: 'Refused', withdrawn: 'Withdrawn', cancelled: 'Cancelled' };

/** An amount in its type's unit: `1.5 days`, `2 hours`. */
export function amountText(amount: number, unit: string): string {
  const noun = unit === 'hour' ? 'hour' : 'day';
  return `${amount} ${noun}${amount === 1 ? '' : 's'}`;
}

/** A request's span as people read it: `2026-06-01 → 2026-06-05`, with its halves when they are not whole days. */
export function spanText(row: { from_date: string; from_half: string; to_date: string; to_half: string }): string {
  const from = row.from_half === 'pm' ? `${row.from_date} (afternoon)` : row.from_date;
  const to = row.to_half === 'am' ? `${row.to_date} (morning)` : row.to_date;
  return row.from_date === row.to_date && row.from_half === row.to_half ? `${row.from_date} (${HALF_LABELS[row.from_half].toLowerCase()})` : from === to ? from : `${from} → ${to}`;
}

/** The caller's balances (empty when they are not linked to a worker). */
export async function myBalances(): Promise<Balance[]> {
  try {
    return (await kit().client.leaves.getLeavesBalances({ query: { per_page: 100 } })).data as Balance[];
  } catch {
    return [];
  }
}

/** Every leave type, by name. */
export async function leaveTypes(): Promise<LeaveType[]> {
  return (await kit().client.leaves.getLeavesTypes({ query: { per_page: 100 } })).data as LeaveType[];
}

/** The cards' look. */
export const CARD_STYLES = css`
  ul.cards { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-3); }
  ul.cards > li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-2, 8px); padding: var(--wpk-space-3); }
  .muted { color: var(--wpk-color-text-muted); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-top: var(--wpk-space-2); }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: start; padding: var(--wpk-space-1) var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); }
`;
