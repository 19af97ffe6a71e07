import { errorText, formatDate, formatMoney, html, kit, nothing, type Collection, type components } from '@wpk/ui';

/** An account of the chart as the API answers it. */
export type Account = components['schemas']['FinanceAccount'];
/** A bill (accounts payable) with its items, adjustments and computed totals. */
export type Bill = components['schemas']['FinanceBill'];
export type BillItem = Bill['items'][number];
export type BillTax = BillItem['taxes'][number];
export type BillStatus = Bill['status'];
export type Budget = components['schemas']['FinanceBudget'];
export type JournalEntry = components['schemas']['FinanceJournalEntry'];
export type AgingRow = components['schemas']['FinanceAgingRow'];
export type AgingTotals = components['schemas']['FinanceAgingTotals'];
export type BudgetRow = components['schemas']['FinanceBudgetRow'];
export type BudgetTotals = components['schemas']['FinanceBudgetTotals'];
export type TrialBalanceRow = components['schemas']['FinanceTrialBalanceRow'];
export type TrialBalanceTotals = components['schemas']['FinanceTrialBalanceTotals'];
export type LedgerRow = components['schemas']['FinanceLedgerRow'];
export type LedgerAccount = components['schemas']['FinanceLedgerAccount'];
export type LedgerTotals = components['schemas']['FinanceLedgerTotals'];

/** A report's answer: a page of rows, and totals over every row (docs/apps/finance.md, "Answers"). */
export type Report<Row, Totals> = Collection<Row> & { totals: Totals };

/** The currencies the API takes (docs/apps/finance.md). */
export const CURRENCIES = [
  'AED', 'ARS', 'AUD', 'BGN', 'BRL', 'CAD', 'CHF', 'CLP', 'CNY', 'COP', 'CZK', 'DKK', 'EGP', 'EUR', 'GBP', 'HKD', 'HUF', 'IDR', 'ILS', 'INR', 'ISK', 'JPY',
  'KES', 'KRW', 'MAD', 'MXN', 'MYR', 'NGN', 'NOK', 'NZD', 'PHP', 'PKR', 'PLN', 'QAR', 'RON', 'SAR', 'SEK', 'SGD', 'THB', 'TRY', 'TWD', 'UAH', 'USD', 'VND', 'ZAR',
] as const;

export const STATUS_LABELS: Record<BillStatus, string> = { draft: 'Draft', received: 'Received', approved: 'Approved', void: 'Void' };

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;

/** An amount (a decimal string) in the member's locale. */
export function money(amount: string, currency: string): string {
  return formatMoney(amount, currency, { locale: kit().locale });
}

/** A `YYYY-MM-DD` day or an instant in the member's locale. */
export function day(value: string | null | undefined): string {
  if (!value) return '';
  const { locale, timeZone } = kit();
  return formatDate(value, { locale, timeZone, style: 'date' });
}

/** Today as `YYYY-MM-DD` in the member's time zone. */
export function today(): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: kit().timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date());
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** An account's shown name: its code, then its display name (else its name). */
export const accountLabel = (account: Pick<Account, 'code' | 'name' | 'display_name'>): string => `${account.code} ${account.display_name ?? account.name}`;

/** The whole chart (a workspace's chart is a few dozen accounts: every page). */
export async function allAccounts(query: Record<string, string> = {}): Promise<Account[]> {
  const accounts: Account[] = [];
  let url: string | null = `/finance/accounts?${new URLSearchParams({ ...query, per_page: '100' })}`;
  while (url) {
    const page: Collection<Account> = await kit().client.request<Collection<Account>>('GET', url);
    accounts.push(...page.data);
    url = page.links.next ?? null;
  }
  return accounts;
}

/** A refusal split for a hand-made form: the field its message names (one of `fields`), else the whole form. */
export interface Refusal {
  field: string | null;
  message: string;
}

/** The field a refusal names: `items[1].taxes[0].rate must be…` gives `items.1.taxes.0.rate`, `due_date …` gives `due_date`. */
export function refusalOf(error: unknown, fields: readonly string[]): Refusal {
  const message = errorText(error);
  const path = /^"?([A-Za-z_]+(?:\[\d+\](?:\.[A-Za-z_]+)?)*)/.exec(message.trim())?.[1] ?? '';
  const dotted = path.replace(/\[(\d+)\]/g, '.$1');
  // The most precise field of the form the message names: `items.1.amount`, else `items.1`, else `items`.
  const parts = dotted.split('.');
  for (let length = parts.length; length > 0; length--) {
    const candidate = parts.slice(0, length).join('.');
    if (fields.includes(candidate)) return { field: candidate, message };
  }
  return { field: null, message };
}

/** The hint slot of a field: its refusal, else its help. */
export function hint(refusal: Refusal | null, field: string, help?: string) {
  if (refusal?.field === field) return html`<span slot="hint" class="error">${refusal.message}</span>`;
  return help ? html`<span slot="hint">${help}</span>` : nothing;
}

/** `aria-invalid` of a field under a refusal. */
export const invalid = (refusal: Refusal | null, field: string): 'true' | 'false' => (refusal?.field === field ? 'true' : 'false');

/** An amount in the ledger's own currency (reports and budgets carry no currency code): a decimal string with two decimals, in the member's locale. */
export function amount(value: string): string {
  const format = new Intl.NumberFormat(kit().locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // Intl.NumberFormat takes decimal strings exactly (ECMA-402, NumberFormat v3); its typings lag.
  return format.format(value as unknown as number);
}
