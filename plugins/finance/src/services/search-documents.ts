import type { SearchDocument } from '@wpk/sdk';
import type { Account, Bill } from '../models/index.js';

/** The search document of an account: by code and name (display name first when set), description as detail. */
export function accountDocument(account: Account): SearchDocument {
  return {
    type: 'account',
    id: account.id,
    badge: account.code,
    title: `${account.code} ${account.display_name ?? account.name}`,
    subtitle: `${account.type[0]!.toUpperCase()}${account.type.slice(1)} account`,
    url: `/accounts/${account.id}`,
    names: [account.code, account.display_name ? `${account.display_name} ${account.name}` : account.name],
    details: [account.description],
    filters: { type: account.type, is_bank: account.is_bank },
  };
}

/** A bill's title: its first item's description (or its memo), its date and total. */
export function billTitle(bill: Bill): string {
  const what = bill.items.find((item) => item.description)?.description ?? bill.memo.split('\n')[0] ?? '';
  return `${what ? `${what.slice(0, 120)} · ` : ''}${bill.total} ${bill.currency}`;
}

/** The search document of a bill: its title, then the memo and the items' descriptions and tags. */
export function billDocument(bill: Bill): SearchDocument {
  return {
    type: 'bill',
    id: bill.id,
    badge: bill.status,
    title: billTitle(bill),
    subtitle: `Bill of ${bill.date}, ${bill.status}`,
    url: `/bills/${bill.id}`,
    names: [billTitle(bill)],
    details: [bill.memo, [...bill.items.map((item) => item.description), ...bill.tags].filter(Boolean).join(' ')],
    filters: { status: bill.status, currency: bill.currency },
  };
}
