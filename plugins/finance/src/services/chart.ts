import { ConflictError, InvalidError, likePattern, Op } from '@wpk/sdk';
import { resource, type FinanceBaseContext, type FinanceContext } from '../kit.js';
import type { Account, AccountType, NormalBalance } from '../models/index.js';
import { accountDocument } from './search-documents.js';

/** The side that grows an account of each type (a contra account takes the other side). */
export const NATURAL_BALANCE: Readonly<Record<AccountType, NormalBalance>> = { asset: 'debit', expense: 'debit', liability: 'credit', equity: 'credit', income: 'credit' };

interface SeedAccount {
  code: string;
  name: string;
  type: AccountType;
  role?: string;
  parent?: string;
  is_bank?: boolean;
  is_contra?: boolean;
  description?: string;
}

/**
 * The default chart seeded on install: a small, conventional numbering (1xxx assets, 2xxx
 * liabilities, 3xxx equity, 4xxx income, 6xxx expenses). Accounts with a `role` are the ones
 * bill postings use: payables, input and output tax, the default expense, purchase discounts and
 * the rounding account.
 */
/** What `account.created` says of an account (a seeded one has no `created_by`). */
const created = (account: Account) => ({ account_id: account.id, code: account.code, name: account.name, type: account.type });

/** The chart's accounts: reads, the search index and the events of every write. Accounts are never deleted. */
export const accounts = resource({
  model: 'accounts',
  label: 'Account',
  order: [['code', 'ASC'], ['id', 'ASC']],
  searchColumns: ['code', 'name', 'display_name'],
  search: { type: 'account', document: accountDocument },
  events: {
    created: (account, ctx) => ['core.finance.account.created', { ...created(account), created_by: ctx.member!.id }],
    updated: (account, changed, ctx) => ['core.finance.account.updated', { account_id: account.id, changed_fields: changed, updated_by: ctx.member!.id }],
  },
});

export const DEFAULT_CHART: readonly SeedAccount[] = [
  { code: '1000', name: 'Assets', type: 'asset', description: 'Heading of the asset accounts.' },
  { code: '1010', name: 'Cash on hand', type: 'asset', parent: '1000' },
  { code: '1020', name: 'Bank account', type: 'asset', parent: '1000', is_bank: true },
  { code: '1200', name: 'Accounts receivable', type: 'asset', parent: '1000' },
  { code: '1400', name: 'Input tax recoverable', type: 'asset', parent: '1000', role: 'input_tax', description: 'Tax paid on purchases, recoverable from the tax authority.' },
  { code: '1500', name: 'Equipment', type: 'asset', parent: '1000' },
  { code: '1510', name: 'Accumulated depreciation', type: 'asset', parent: '1500', is_contra: true },
  { code: '2000', name: 'Liabilities', type: 'liability', description: 'Heading of the liability accounts.' },
  { code: '2100', name: 'Accounts payable', type: 'liability', parent: '2000', role: 'payables', description: 'What the workspace owes its suppliers: approved bills.' },
  { code: '2200', name: 'Output tax payable', type: 'liability', parent: '2000', role: 'output_tax', description: 'Tax owed to the tax authority (including reverse-charge tax self-assessed on purchases).' },
  { code: '3000', name: 'Equity', type: 'equity' },
  { code: '3100', name: 'Retained earnings', type: 'equity', parent: '3000' },
  { code: '4000', name: 'Income', type: 'income' },
  { code: '4100', name: 'Sales', type: 'income', parent: '4000' },
  { code: '4900', name: 'Purchase discounts', type: 'income', parent: '4000', role: 'purchase_discounts', description: 'Discounts suppliers grant on bills (bill adjustments of type discount).' },
  { code: '6000', name: 'Expenses', type: 'expense', description: 'Heading of the expense accounts.' },
  { code: '6100', name: 'General expenses', type: 'expense', parent: '6000', role: 'expense', description: 'Where a bill item or charge without an account code is posted.' },
  { code: '6200', name: 'Rent', type: 'expense', parent: '6000' },
  { code: '6300', name: 'Software and subscriptions', type: 'expense', parent: '6000' },
  { code: '6400', name: 'Travel', type: 'expense', parent: '6000' },
  { code: '6500', name: 'Professional services', type: 'expense', parent: '6000' },
  { code: '6900', name: 'Bank fees', type: 'expense', parent: '6000' },
  { code: '6990', name: 'Currency rounding', type: 'expense', parent: '6000', role: 'rounding', description: 'Differences of cents from converting a bill to the base currency line by line.' },
];

/**
 * Seeds the default chart once per workspace (on the install event; bill and account creation
 * call it too, so a request that beats the event finds the chart). A code the workspace already
 * has is skipped. Concurrent callers take turns on a lock, then find the book row.
 */
export async function ensureChart(ctx: FinanceBaseContext): Promise<void> {
  if ((await ctx.db.books.count()) > 0) return;
  await ctx.lock('chart:seed');
  if ((await ctx.db.books.count()) > 0) return;
  const byCode = new Map<string, Account>();
  for (const account of await ctx.db.accounts.findAll()) byCode.set(account.code.toLowerCase(), account);
  for (const seed of DEFAULT_CHART) {
    if (byCode.has(seed.code.toLowerCase())) continue;
    const parent = seed.parent ? byCode.get(seed.parent.toLowerCase()) : undefined;
    const account = await ctx.db.accounts.create({
      code: seed.code,
      name: seed.name,
      type: seed.type,
      parent_id: parent?.id ?? null,
      description: seed.description ?? '',
      normal_balance: seed.is_contra ? opposite(NATURAL_BALANCE[seed.type]) : NATURAL_BALANCE[seed.type],
      is_contra: seed.is_contra ?? false,
      is_bank: seed.is_bank ?? false,
      system_role: seed.role ?? null,
    });
    byCode.set(seed.code.toLowerCase(), account);
    ctx.search.upsert(accountDocument(account));
    ctx.events.stage('core.finance.account.created', created(account));
  }
  await ctx.db.books.create({ seeded_at: new Date() });
}

const opposite = (side: NormalBalance): NormalBalance => (side === 'debit' ? 'credit' : 'debit');

export interface AccountInput {
  code: string;
  name: string;
  type: AccountType;
  parent_id?: string;
  description?: string;
  normal_balance?: NormalBalance;
  is_contra?: boolean;
  is_bank?: boolean;
}

/** Adds an account: code unique per workspace (case-insensitive), parent of the same type. */
export async function createAccount(ctx: FinanceContext, input: AccountInput): Promise<Account> {
  await ensureChart(ctx);
  await ctx.lock(`account-code:${input.code.toLowerCase()}`);
  if (await findByCode(ctx, input.code)) throw new ConflictError(`An account with code ${input.code} already exists`);
  let parent: Account | null = null;
  if (input.parent_id !== undefined) {
    parent = await accounts.find(ctx, input.parent_id);
    if (!parent) throw new InvalidError(`parent_id: ${input.parent_id} is not an account of this workspace`);
    if (parent.type !== input.type) throw new InvalidError(`parent_id: the parent account ${parent.code} is of type ${parent.type}, not ${input.type}; an account sits under one of its own type`);
  }
  const isContra = input.is_contra ?? false;
  const natural = isContra ? opposite(NATURAL_BALANCE[input.type]) : NATURAL_BALANCE[input.type];
  if (input.is_bank && input.type !== 'asset') throw new InvalidError(`is_bank: a bank account is an asset, not ${input.type}`);
  return accounts.create(ctx, {
    code: input.code,
    name: input.name,
    type: input.type,
    parent_id: parent?.id ?? null,
    description: input.description ?? '',
    normal_balance: input.normal_balance ?? natural,
    is_contra: isContra,
    is_bank: input.is_bank ?? false,
  });
}

/** `PUT`: the display name (empty or null clears it) and `show_in_unified`; an unchanged PUT writes and emits nothing. */
export async function updateAccount(ctx: FinanceContext, id: string, input: { display_name?: string | null; show_in_unified?: boolean }): Promise<Account> {
  const account = await accounts.require(ctx, id, { lock: 'update' });
  const displayName = input.display_name === undefined ? undefined : input.display_name === null || input.display_name.trim() === '' ? null : input.display_name;
  const { row } = await accounts.patch(ctx, account, { display_name: displayName, show_in_unified: input.show_in_unified });
  return row;
}

/** The account of the workspace; 404 otherwise. */
export function requireAccount(ctx: FinanceBaseContext, id: string): Promise<Account> {
  return accounts.require(ctx, id);
}

/** The account with this code (case-insensitive), or null. */
export async function findByCode(ctx: FinanceBaseContext, code: string): Promise<Account | null> {
  const rows = await ctx.db.accounts.findAll({ where: { code: { [Op.iLike]: likePattern(code, 'prefix') } } });
  return rows.find((account) => account.code.toLowerCase() === code.toLowerCase()) ?? null;
}

/** The account playing a posting role (`payables`, ...); a 409 naming it when the chart lacks it. */
export async function roleAccount(ctx: FinanceBaseContext, role: string): Promise<Account> {
  const account = await ctx.db.accounts.findOne({ where: { system_role: role } });
  if (!account) throw new ConflictError(`The chart of accounts has no account for ${role.replace('_', ' ')} (system role ${role})`);
  return account;
}

export interface AccountFilters {
  type?: AccountType;
  q?: string;
  is_bank?: boolean;
}

export function listAccounts(ctx: FinanceContext, filters: AccountFilters): Promise<{ rows: Account[]; count: number }> {
  const where: Record<string, unknown> = {};
  if (filters.type) where.type = filters.type;
  if (filters.is_bank !== undefined) where.is_bank = filters.is_bank;
  return accounts.list(ctx, { q: filters.q, where });
}
