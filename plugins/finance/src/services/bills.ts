import { ConflictError, defineStateMachine, ForbiddenError, InvalidError, Op } from '@wpk/sdk';
import { resource, type FinanceContext, type FinanceEvent } from '../kit.js';
import { BILL_STATUSES, type Account, type Bill, type BillStatus, type JournalEntry, type JournalLine } from '../models/index.js';
import { ensureChart, roleAccount } from './chart.js';
import { computeBill, postingLines, type AdjustmentInput, type ItemInput, type PostingAccounts } from './compute.js';
import { dec, fixed } from './money.js';
import { baseCurrency } from './organization.js';
import { billDocument } from './search-documents.js';

/** The bill body of POST and PUT (PUT: every field optional). */
export interface BillInput {
  date?: string;
  items?: ItemInput[];
  company_mrn?: string | null;
  contact_mrn?: string | null;
  currency?: string;
  exchange_rate?: number;
  due_date?: string | null;
  memo?: string;
  tags?: string[];
  adjustments?: AdjustmentInput[];
  dimensions?: Record<string, string>;
  sources?: string[];
  idempotency_key?: string;
}

/**
 * The moves of a bill (`PATCH` status): a draft is received; a draft or received bill is approved,
 * posting its journal entry; any bill but a void one is voided (an approved one by posting the
 * reversal of its entry). Void is final.
 */
export const billMachine = defineStateMachine({
  name: 'bill',
  states: BILL_STATUSES,
  initial: 'draft',
  moves: {
    receive: { from: ['draft'], to: 'received', event: 'core.finance.bill.received' },
    approve: { from: ['draft', 'received'], to: 'approved', event: 'core.finance.bill.approved' },
    void: { from: ['draft', 'received', 'approved'], to: 'void', event: 'core.finance.bill.voided' },
  },
});

/** Bills of the workspace, newest date first: reads, the search index and the `created` event. */
export const bills = resource({
  model: 'bills',
  label: 'Bill',
  order: [['date', 'DESC'], ['created_at', 'DESC'], ['id', 'ASC']],
  search: { type: 'bill', document: billDocument },
  events: { created: (bill, ctx) => ['core.finance.bill.created', { bill_id: bill.id, currency: bill.currency, total: bill.total, created_by: ctx.member!.id }] },
});

/** The fields of the body a PUT may change, in the order `changed_fields` names them. */
const BODY_FIELDS = ['date', 'items', 'company_mrn', 'contact_mrn', 'currency', 'exchange_rate', 'due_date', 'memo', 'tags', 'adjustments', 'dimensions'] as const;

/**
 * The rate of `currency` to the base currency: given, or 1 when they are the same. A foreign
 * currency needs one; the base currency takes only 1.
 */
function exchangeRate(currency: string, base: string, given: number | string | undefined): string {
  if (currency === base) {
    if (given !== undefined && !dec(given).equals(1)) throw new InvalidError(`exchange_rate: a bill in the base currency (${base}) has the rate 1, not ${given}`);
    return '1';
  }
  if (given === undefined) throw new InvalidError(`exchange_rate: is required when the currency (${currency}) is not the base currency (${base})`);
  return dec(given).toString();
}

/** Checks that every account code the bill names exists and may take a purchase (expense or asset; income or expense for an adjustment). */
async function checkCodes(ctx: FinanceContext, items: ItemInput[] | Bill['items'], adjustments: AdjustmentInput[] | Bill['adjustments']): Promise<void> {
  const codes = new Set<string>();
  items.forEach((item) => item.account_code && codes.add(item.account_code.toLowerCase()));
  adjustments.forEach((adjustment) => adjustment.account_code && codes.add(adjustment.account_code.toLowerCase()));
  if (codes.size === 0) return;
  const found = new Map((await ctx.db.accounts.findAll()).map((account) => [account.code.toLowerCase(), account]));
  items.forEach((item, index) => {
    if (!item.account_code) return;
    const account = found.get(item.account_code.toLowerCase());
    if (!account) throw new InvalidError(`items[${index}].account_code: ${item.account_code} is not an account of the chart`);
    if (account.type !== 'expense' && account.type !== 'asset') throw new InvalidError(`items[${index}].account_code: ${account.code} is an ${account.type} account; a bill item is posted to an expense or asset account`);
  });
  adjustments.forEach((adjustment, index) => {
    if (!adjustment.account_code) return;
    const account = found.get(adjustment.account_code.toLowerCase());
    if (!account) throw new InvalidError(`adjustments[${index}].account_code: ${adjustment.account_code} is not an account of the chart`);
  });
}

function checkDates(date: string, dueDate: string | null): void {
  if (dueDate !== null && dueDate < date) throw new InvalidError(`due_date: ${dueDate} is before the bill's date ${date}`);
}

/**
 * Records a bill as a draft. With an `idempotency_key`, a second request with the same key
 * returns the first bill as it is now (whatever its body), and creates nothing: concurrent
 * requests take turns on a lock by key, and a unique index backs it.
 */
export async function createBill(ctx: FinanceContext, input: BillInput): Promise<{ bill: Bill; created: boolean }> {
  if (input.idempotency_key !== undefined) {
    await ctx.lock(`bill-key:${input.idempotency_key}`);
    const existing = await ctx.db.bills.findOne({ where: { idempotency_key: input.idempotency_key } });
    if (existing) return { bill: existing, created: false };
  }
  await ensureChart(ctx);
  const base = await baseCurrency(ctx);
  const currency = input.currency!;
  const rate = exchangeRate(currency, base, input.exchange_rate);
  const items = input.items ?? [];
  const adjustments = input.adjustments ?? [];
  await checkCodes(ctx, items, adjustments);
  checkDates(input.date!, input.due_date ?? null);
  const amounts = computeBill({ currency, exchange_rate: rate, base_currency: base, items, adjustments });
  const bill = await bills.create(ctx, {
    status: billMachine.initial,
    date: input.date!,
    due_date: input.due_date ?? null,
    currency,
    exchange_rate: rate,
    base_currency: base,
    company_mrn: input.company_mrn ?? null,
    contact_mrn: input.contact_mrn ?? null,
    memo: input.memo ?? '',
    tags: input.tags ?? [],
    dimensions: input.dimensions ?? {},
    sources: input.sources ?? [],
    ...amounts,
    idempotency_key: input.idempotency_key ?? null,
    created_by: ctx.member.id,
  });
  return { bill, created: true };
}

export function requireBill(ctx: FinanceContext, id: string, lock = false): Promise<Bill> {
  return bills.require(ctx, id, lock ? { lock: 'update' } : {});
}

/** Edits a draft bill; any other status is a 409 saying why. The amounts are computed again. */
export async function updateBill(ctx: FinanceContext, id: string, input: BillInput): Promise<Bill> {
  const bill = await requireBill(ctx, id, true);
  if (bill.status !== 'draft') throw new ConflictError(`Only a draft bill can be edited; this bill is ${bill.status}${bill.status === 'approved' ? ' (posted to the ledger: void it and record a new one)' : ''}`);
  const changed = BODY_FIELDS.filter((field) => input[field] !== undefined);
  if (changed.length === 0) return bill;
  const currency = input.currency ?? bill.currency;
  const base = await baseCurrency(ctx);
  // The stored rate stays while the currency does (and is not the base currency); a new currency needs its own.
  const keepRate = (input.currency === undefined || input.currency === bill.currency) && currency !== base;
  const rate = exchangeRate(currency, base, input.exchange_rate ?? (keepRate ? bill.exchange_rate : undefined));
  const items = input.items ?? (bill.items as unknown as ItemInput[]).map(storedToInput);
  const adjustments = input.adjustments ?? bill.adjustments.map(storedAdjustmentToInput);
  await checkCodes(ctx, items, adjustments);
  const date = input.date ?? bill.date;
  const dueDate = input.due_date !== undefined ? input.due_date : bill.due_date;
  checkDates(date, dueDate);
  const amounts = computeBill({ currency, exchange_rate: rate, base_currency: base, items, adjustments });
  const changes: Partial<Bill> = { date, due_date: dueDate, currency, exchange_rate: rate, base_currency: base, ...amounts };
  if (input.company_mrn !== undefined) changes.company_mrn = input.company_mrn;
  if (input.contact_mrn !== undefined) changes.contact_mrn = input.contact_mrn;
  if (input.memo !== undefined) changes.memo = input.memo;
  if (input.tags !== undefined) changes.tags = input.tags;
  if (input.dimensions !== undefined) changes.dimensions = input.dimensions;
  await ctx.db.bills.update(changes, { where: { id } });
  const updated = await bills.require(ctx, id);
  ctx.search.upsert(billDocument(updated));
  ctx.events.stage('core.finance.bill.updated', { bill_id: id, changed_fields: [...changed], updated_by: ctx.member.id });
  return updated;
}

/** A stored item back to the input shape, so a PUT changing only the currency recomputes the taxes the same way. */
function storedToInput(item: Bill['items'][number] | ItemInput): ItemInput {
  const stored = item as Bill['items'][number];
  const num = (value: string | null) => (value === null ? undefined : Number(value));
  return {
    description: stored.description,
    ...(stored.unit_price !== null ? { unit_price: num(stored.unit_price), quantity: num(stored.quantity), discount: num(stored.discount) } : { amount: Number(stored.amount) }),
    account_code: stored.account_code || undefined,
    product_mrn: stored.product_mrn ?? undefined,
    taxes: stored.taxes.map((tax) => (tax.rate !== null ? { name: tax.name, rate: Number(tax.rate), reverse_charge: tax.reverse_charge } : { name: tax.name, amount: Number(tax.amount), reverse_charge: tax.reverse_charge })),
  };
}

function storedAdjustmentToInput(adjustment: Bill['adjustments'][number]): AdjustmentInput {
  return {
    label: adjustment.label,
    type: adjustment.type,
    ...(adjustment.value !== null ? { value: Number(adjustment.value) } : { amount: Math.abs(Number(adjustment.amount)) }),
    account_code: adjustment.account_code || undefined,
  };
}

/**
 * Moves a bill to `status` by `billMachine` (a refused move is a 409 naming both states).
 * Approving needs `finance.bills.approve` and posts the bill's entry; voiding needs
 * `finance.bills.void` and, for an approved bill, posts the reversal of its entry.
 */
export async function moveBill(ctx: FinanceContext, id: string, status: Exclude<BillStatus, 'draft'>): Promise<Bill> {
  if (status === 'approved' && !ctx.permissions.has('finance.bills.approve')) throw new ForbiddenError('Missing permission: finance.bills.approve');
  if (status === 'void' && !ctx.permissions.has('finance.bills.void')) throw new ForbiddenError('Missing permission: finance.bills.void');
  const bill = await requireBill(ctx, id, true);
  const { move, event } = billMachine.moveTo(bill.status, status);
  const now = ctx.now();
  if (move === 'receive') {
    await ctx.db.bills.update({ status, received_at: now }, { where: { id } });
    ctx.events.stage(event as FinanceEvent, { bill_id: id, received_by: ctx.member.id });
  } else if (move === 'approve') {
    if (bill.items.length === 0 || dec(bill.total).isZero()) throw new ConflictError('The bill has nothing to post: approve a bill with items and a total above zero');
    const base = await baseCurrency(ctx);
    if (bill.base_currency !== base) throw new ConflictError(`The bill was computed in the base currency ${bill.base_currency}, but the base currency is now ${base}; save it again (PUT) before approving`);
    const entry = await postBill(ctx, bill);
    await ctx.db.bills.update({ status, approved_at: now, journal_entry_id: entry.id }, { where: { id } });
    ctx.events.stage(event as FinanceEvent, { bill_id: id, journal_entry_id: entry.id, currency: bill.currency, total: bill.total, base_currency: bill.base_currency, base_total: bill.base_total, approved_by: ctx.member.id });
  } else {
    const reversal = bill.status === 'approved' ? await reverseEntry(ctx, bill) : null;
    await ctx.db.bills.update({ status, voided_at: now, reversal_entry_id: reversal?.id ?? null }, { where: { id } });
    ctx.events.stage(event as FinanceEvent, { bill_id: id, reversal_entry_id: reversal?.id ?? null, voided_by: ctx.member.id });
  }
  const updated = await bills.require(ctx, id);
  ctx.search.upsert(billDocument(updated));
  return updated;
}

async function postingAccounts(ctx: FinanceContext): Promise<PostingAccounts> {
  const all = await ctx.db.accounts.findAll();
  const byCode = new Map(all.map((account) => [account.code.toLowerCase(), account]));
  return {
    byCode: (code) => byCode.get(code.toLowerCase()),
    payables: await roleAccount(ctx, 'payables'),
    input_tax: await roleAccount(ctx, 'input_tax'),
    output_tax: await roleAccount(ctx, 'output_tax'),
    expense: await roleAccount(ctx, 'expense'),
    purchase_discounts: await roleAccount(ctx, 'purchase_discounts'),
    rounding: await roleAccount(ctx, 'rounding'),
  };
}

/** Writes a balanced entry; refuses (500) one that does not balance, which would be a bug. */
async function writeEntry(ctx: FinanceContext, entry: Omit<JournalEntry, 'id' | 'created_at' | 'created_by'>, lines: Array<{ account: Account; side: 'debit' | 'credit'; base: string; amount_currency: string; description: string }>, dimensions: Record<string, string>, currency: string): Promise<JournalEntry> {
  let debits = dec(0);
  let credits = dec(0);
  for (const line of lines) {
    if (line.side === 'debit') debits = debits.plus(line.base);
    else credits = credits.plus(line.base);
  }
  if (!debits.equals(credits)) throw new Error(`unbalanced journal entry for bill ${entry.bill_id}: debits ${fixed(debits)} ≠ credits ${fixed(credits)}`);
  const created = await ctx.db.journalEntries.create({ ...entry, created_by: ctx.member.id, created_at: new Date() });
  let lineNo = 0;
  for (const line of lines) {
    lineNo += 1;
    await ctx.db.journalLines.create({
      entry_id: created.id,
      line_no: lineNo,
      account_id: line.account.id,
      debit: line.side === 'debit' ? line.base : '0',
      credit: line.side === 'credit' ? line.base : '0',
      currency,
      amount_currency: line.amount_currency,
      description: line.description,
      dimensions,
      date: entry.date,
    });
  }
  return created;
}

/** Approving: the bill's entry, dated the bill's date. */
async function postBill(ctx: FinanceContext, bill: Bill): Promise<JournalEntry> {
  const accounts = await postingAccounts(ctx);
  for (const code of [...bill.items.map((item) => item.account_code), ...bill.adjustments.map((adjustment) => adjustment.account_code)]) {
    if (code && !accounts.byCode(code)) throw new ConflictError(`The bill names account ${code}, which is not in the chart`);
  }
  const lines = postingLines(bill, accounts).map((line) => ({ account: line.account, side: line.side, base: fixed(line.base), amount_currency: fixed(line.side === 'debit' ? line.amount_currency : line.amount_currency.negated()), description: line.description }));
  return writeEntry(ctx, { bill_id: bill.id, kind: 'bill', reverses_id: null, date: bill.date, memo: bill.memo, currency: bill.base_currency }, lines, bill.dimensions, bill.currency);
}

/**
 * Voiding an approved bill: the mirror of its entry (debits become credits), dated as the entry
 * it reverses (ERPNext's cancellation), so the bill nets to zero in every report from its date on.
 */
async function reverseEntry(ctx: FinanceContext, bill: Bill): Promise<JournalEntry> {
  const original = await ctx.db.journalEntries.findById(bill.journal_entry_id!);
  if (!original) throw new Error(`bill ${bill.id} is approved but its journal entry ${bill.journal_entry_id} is missing`);
  const originalLines = await ctx.db.journalLines.findAll({ where: { entry_id: original.id }, order: [['line_no', 'ASC']] });
  const accounts = new Map((await ctx.db.accounts.findAll({ where: { id: { [Op.in]: originalLines.map((line) => line.account_id) } } })).map((account) => [account.id, account]));
  const date = original.date;
  const lines = originalLines.map((line: JournalLine) => ({
    account: accounts.get(line.account_id)!,
    side: dec(line.debit).isZero() ? ('debit' as const) : ('credit' as const),
    base: dec(line.debit).isZero() ? line.credit : line.debit,
    amount_currency: fixed(dec(line.amount_currency).negated()),
    description: line.description,
  }));
  return writeEntry(ctx, { bill_id: bill.id, kind: 'reversal', reverses_id: original.id, date, memo: `Reversal of the entry of bill ${bill.id} (voided)`, currency: original.currency }, lines, bill.dimensions, bill.currency);
}

export interface BillFilters {
  status?: BillStatus;
  currency?: string;
  company_mrn?: string;
  tag?: string;
}

export function listBills(ctx: FinanceContext, filters: BillFilters): Promise<{ rows: Bill[]; count: number }> {
  const where: Record<string, unknown> = {};
  if (filters.status) where.status = filters.status;
  if (filters.currency) where.currency = filters.currency;
  if (filters.company_mrn) where.company_mrn = filters.company_mrn;
  if (filters.tag) where.tags = { [Op.contains]: [filters.tag] };
  return bills.list(ctx, { where });
}
