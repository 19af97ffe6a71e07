import { css, type components } from '@wpk/ui';

export type Pipeline = components['schemas']['CrmPipeline'];
export type Board = components['schemas']['CrmBoard'];
export type Deal = components['schemas']['CrmDeal'];
export type Quote = components['schemas']['CrmQuote'];
export type Lead = components['schemas']['CrmLead'];
export type Product = components['schemas']['CrmProduct'];
export type Activity = components['schemas']['CrmActivity'];
export type LeadForm = components['schemas']['CrmLeadForm'];

/** An exact amount as people read it: `1,250.00 EUR` (the string's digits, grouped; never through a float). */
export function moneyText(amount: string, currency: string): string {
  const [whole, cents = '00'] = amount.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents} ${currency}`;
}

export const DEAL_STATUS: Record<string, string> = { open: 'Open', won: 'Won', lost: 'Lost' };
export const QUOTE_STATUS: Record<string, string> = { draft: 'Draft', sent: 'Sent', accepted: 'Accepted', declined: 'Declined', expired: 'Expired' };
/** What each kind of timeline entry is called. */
export const ACTIVITY_KIND: Record<string, string> = { call: 'Call', mail: 'Mail', task: 'Task', meeting: 'Meeting' };

export const LEAD_STATUS: Record<string, string> = { new: 'New', contacted: 'Contacted', qualified: 'Qualified', disqualified: 'Disqualified' };

/** The lists' look. */
export const LIST_STYLES = css`
  ul.cards { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-3); }
  ul.cards > li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); }
  .muted { color: var(--wpk-color-text-muted); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-top: var(--wpk-space-2); }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: start; padding: var(--wpk-space-1) var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); }
  td.num, th.num { text-align: end; font-variant-numeric: tabular-nums; }
  .scroll { overflow-x: auto; }
`;
