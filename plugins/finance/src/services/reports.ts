import { InvalidError, Op } from '@wpk/sdk';
import type { Account, JournalLine } from '../models/index.js';
import type { FinanceContext } from '../kit.js';
import { requireAccount } from './chart.js';
import { dec, fixed, sum, type Dec } from './money.js';

/**
 * The reports: read from the posted journal lines (and approved bills for aging), summed with
 * exact decimals in the service. Amounts are in the base currency, as decimal strings.
 */

export interface Report<Row> {
  columns: Array<keyof Row & string>;
  rows: Row[];
  totals: Partial<Record<keyof Row & string, string>>;
}

async function linesUpTo(ctx: FinanceContext, where: Record<string, unknown>): Promise<JournalLine[]> {
  return ctx.db.journalLines.findAll({ where, order: [['date', 'ASC'], ['entry_id', 'ASC'], ['line_no', 'ASC']] });
}

function dateRange(from?: string, to?: string): Record<string | symbol, string> | undefined {
  if (from && to && to < from) throw new InvalidError(`to: ${to} is before from ${from}`);
  const range: Record<string | symbol, string> = {};
  if (from) range[Op.gte] = from;
  if (to) range[Op.lte] = to;
  return from || to ? range : undefined;
}

export interface TrialBalanceRow {
  account_id: string;
  code: string;
  name: string;
  type: string;
  debit: string;
  credit: string;
  balance_debit: string;
  balance_credit: string;
}

/**
 * Trial balance as of a date (every posted line up to it): per account with activity, by code,
 * the debits and credits posted and the net balance on its side. The totals' `balance` (debits −
 * credits of every line) is always "0.00": every entry balances.
 */
export async function trialBalance(ctx: FinanceContext, query: { as_of?: string }): Promise<Report<TrialBalanceRow>> {
  const range = dateRange(undefined, query.as_of);
  const lines = await linesUpTo(ctx, range ? { date: range } : {});
  const byAccount = new Map<string, { debit: Dec; credit: Dec }>();
  for (const line of lines) {
    const sums = byAccount.get(line.account_id) ?? { debit: dec(0), credit: dec(0) };
    sums.debit = sums.debit.plus(line.debit);
    sums.credit = sums.credit.plus(line.credit);
    byAccount.set(line.account_id, sums);
  }
  const accounts = byAccount.size ? await ctx.db.accounts.findAll({ where: { id: { [Op.in]: [...byAccount.keys()] } }, order: [['code', 'ASC']] }) : [];
  const rows = accounts.map((account): TrialBalanceRow => {
    const { debit, credit } = byAccount.get(account.id)!;
    const net = debit.minus(credit);
    return { account_id: account.id, code: account.code, name: account.display_name ?? account.name, type: account.type, debit: fixed(debit), credit: fixed(credit), balance_debit: fixed(net.isPositive() ? net : dec(0)), balance_credit: fixed(net.isNegative() ? net.negated() : dec(0)) };
  });
  const debit = sum(rows.map((row) => dec(row.debit)));
  const credit = sum(rows.map((row) => dec(row.credit)));
  return {
    columns: ['code', 'name', 'type', 'debit', 'credit', 'balance_debit', 'balance_credit'],
    rows,
    totals: { debit: fixed(debit), credit: fixed(credit), balance_debit: fixed(sum(rows.map((row) => dec(row.balance_debit)))), balance_credit: fixed(sum(rows.map((row) => dec(row.balance_credit)))), balance: fixed(debit.minus(credit)) } as Report<TrialBalanceRow>['totals'],
  };
}

export interface LedgerRow {
  date: string;
  entry_id: string | null;
  bill_id: string | null;
  line_no: number | null;
  description: string;
  debit: string;
  credit: string;
  balance: string;
}

/**
 * The general ledger of one account between two dates: an opening balance row (when `from` is
 * given), then each posted line in date order with the running balance, signed on the account's
 * normal side (a credit account's balance grows with credits).
 */
export async function generalLedger(ctx: FinanceContext, query: { account_id: string; from?: string; to?: string }): Promise<Report<LedgerRow> & { account: Account }> {
  const account = await requireAccount(ctx, query.account_id);
  const range = dateRange(query.from, query.to);
  const sign = (debit: Dec, credit: Dec) => (account.normal_balance === 'debit' ? debit.minus(credit) : credit.minus(debit));
  let balance = dec(0);
  const rows: LedgerRow[] = [];
  if (query.from) {
    const before = await linesUpTo(ctx, { account_id: account.id, date: { [Op.lt]: query.from } });
    balance = sum(before.map((line) => sign(dec(line.debit), dec(line.credit))));
    rows.push({ date: query.from, entry_id: null, bill_id: null, line_no: null, description: 'Opening balance', debit: '0.00', credit: '0.00', balance: fixed(balance) });
  }
  const lines = await linesUpTo(ctx, range ? { account_id: account.id, date: range } : { account_id: account.id });
  const entries = new Map((lines.length ? await ctx.db.journalEntries.findAll({ where: { id: { [Op.in]: [...new Set(lines.map((line) => line.entry_id))] } } }) : []).map((entry) => [entry.id, entry]));
  lines.sort((a, b) => (a.date === b.date ? entries.get(a.entry_id)!.created_at.getTime() - entries.get(b.entry_id)!.created_at.getTime() || a.line_no - b.line_no : a.date < b.date ? -1 : 1));
  let debits = dec(0);
  let credits = dec(0);
  for (const line of lines) {
    balance = balance.plus(sign(dec(line.debit), dec(line.credit)));
    debits = debits.plus(line.debit);
    credits = credits.plus(line.credit);
    rows.push({ date: line.date, entry_id: line.entry_id, bill_id: entries.get(line.entry_id)?.bill_id ?? null, line_no: line.line_no, description: line.description, debit: fixed(dec(line.debit)), credit: fixed(dec(line.credit)), balance: fixed(balance) });
  }
  return { account, columns: ['date', 'entry_id', 'bill_id', 'line_no', 'description', 'debit', 'credit', 'balance'], rows, totals: { debit: fixed(debits), credit: fixed(credits), balance: fixed(balance) } };
}

export interface AgingRow {
  company_mrn: string | null;
  bills: number;
  current: string;
  days_1_30: string;
  days_31_60: string;
  days_61_90: string;
  days_over_90: string;
  total: string;
}

const BUCKETS = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * Accounts-payable aging as of a date (default today): approved bills dated on or before it, per
 * supplier (`company_mrn`), in the base currency, by days past due (the due date, else the bill's
 * date): not yet due, 1-30, 31-60, 61-90, over 90. The app records no payments yet, so every
 * approved bill is open; a voided bill is not.
 */
export async function apAging(ctx: FinanceContext, query: { as_of?: string }): Promise<Report<AgingRow>> {
  const asOf = query.as_of ?? ctx.now().toISOString().slice(0, 10);
  const bills = await ctx.db.bills.findAll({ where: { status: 'approved', date: { [Op.lte]: asOf } }, order: [['date', 'ASC'], ['id', 'ASC']] });
  const bySupplier = new Map<string, { bills: number; buckets: Record<(typeof BUCKETS)[number], Dec> }>();
  for (const bill of bills) {
    const key = bill.company_mrn ?? '';
    const group = bySupplier.get(key) ?? { bills: 0, buckets: Object.fromEntries(BUCKETS.map((bucket) => [bucket, dec(0)])) as Record<(typeof BUCKETS)[number], Dec> };
    const late = daysBetween(bill.due_date ?? bill.date, asOf);
    const bucket = late <= 0 ? 'current' : late <= 30 ? 'days_1_30' : late <= 60 ? 'days_31_60' : late <= 90 ? 'days_61_90' : 'days_over_90';
    group.bills += 1;
    group.buckets[bucket] = group.buckets[bucket].plus(bill.base_total);
    bySupplier.set(key, group);
  }
  const rows = [...bySupplier.entries()]
    .sort(([a], [b]) => (a === b ? 0 : a === '' ? 1 : b === '' ? -1 : a < b ? -1 : 1))
    .map(([key, group]): AgingRow => ({
      company_mrn: key || null,
      bills: group.bills,
      current: fixed(group.buckets.current),
      days_1_30: fixed(group.buckets.days_1_30),
      days_31_60: fixed(group.buckets.days_31_60),
      days_61_90: fixed(group.buckets.days_61_90),
      days_over_90: fixed(group.buckets.days_over_90),
      total: fixed(sum(BUCKETS.map((bucket) => group.buckets[bucket]))),
    }));
  const totals: Report<AgingRow>['totals'] = {};
  for (const column of [...BUCKETS, 'total'] as const) totals[column] = fixed(sum(rows.map((row) => dec(row[column]))));
  return { columns: ['company_mrn', 'bills', ...BUCKETS, 'total'], rows, totals };
}

export interface BudgetRow {
  dimension: string;
  value: string | null;
  budget_id: string;
  account_id: string;
  code: string;
  name: string;
  period_start: string;
  period_end: string;
  budget: string;
  actual: string;
  variance: string;
}

/**
 * Budget vs actual, per value of one dimension (`department` by default): each budget (whose
 * period overlaps `from`-`to` when given) against the posted lines of its account within its
 * period whose dimension matches the budget's (a budget without a value for the dimension counts
 * every line of the account). Actual is on the account's normal side; variance = budget − actual.
 */
export async function budgetVsActual(ctx: FinanceContext, query: { dimension?: 'department' | 'location' | 'project'; from?: string; to?: string }): Promise<Report<BudgetRow>> {
  const dimension = query.dimension ?? 'department';
  dateRange(query.from, query.to);
  const where: Record<string, unknown> = {};
  if (query.from) where.period_end = { [Op.gte]: query.from };
  if (query.to) where.period_start = { [Op.lte]: query.to };
  const budgets = await ctx.db.budgets.findAll({ where, order: [['period_start', 'ASC'], ['id', 'ASC']] });
  const accountIds = [...new Set(budgets.map((budget) => budget.account_id))];
  const accounts = new Map((accountIds.length ? await ctx.db.accounts.findAll({ where: { id: { [Op.in]: accountIds } } }) : []).map((account) => [account.id, account]));
  const lines = accountIds.length ? await ctx.db.journalLines.findAll({ where: { account_id: { [Op.in]: accountIds } } }) : [];
  const rows = budgets.map((budget): BudgetRow => {
    const account = accounts.get(budget.account_id)!;
    const value = budget[dimension];
    const actual = sum(
      lines
        .filter((line) => line.account_id === budget.account_id && line.date >= budget.period_start && line.date <= budget.period_end && (value === null || line.dimensions?.[dimension] === value))
        .map((line) => (account.normal_balance === 'debit' ? dec(line.debit).minus(line.credit) : dec(line.credit).minus(line.debit))),
    );
    return { dimension, value, budget_id: budget.id, account_id: account.id, code: account.code, name: account.display_name ?? account.name, period_start: budget.period_start, period_end: budget.period_end, budget: fixed(dec(budget.amount)), actual: fixed(actual), variance: fixed(dec(budget.amount).minus(actual)) };
  });
  rows.sort((a, b) => (a.value ?? '\uffff').localeCompare(b.value ?? '\uffff') || a.code.localeCompare(b.code) || a.period_start.localeCompare(b.period_start));
  return {
    columns: ['dimension', 'value', 'code', 'name', 'period_start', 'period_end', 'budget', 'actual', 'variance'],
    rows,
    totals: { budget: fixed(sum(rows.map((row) => dec(row.budget)))), actual: fixed(sum(rows.map((row) => dec(row.actual)))), variance: fixed(sum(rows.map((row) => dec(row.variance)))) },
  };
}

/** RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line break; a field starting with =, +, - or @ is prefixed with ' so a spreadsheet does not run it. */
export function toCsv<Row>(report: Report<Row>): string {
  const cell = (value: unknown): string => {
    let text = value === null || value === undefined ? '' : String(value);
    if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [report.columns.join(',')];
  for (const row of report.rows) lines.push(report.columns.map((column) => cell((row as Record<string, unknown>)[column])).join(','));
  if (Object.keys(report.totals).length > 0) lines.push(report.columns.map((column, index) => cell(index === 0 ? 'Total' : (report.totals as Record<string, string | undefined>)[column] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
