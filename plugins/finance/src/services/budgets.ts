import { InvalidError } from '@wpk/sdk';
import { resource, type FinanceContext } from '../kit.js';
import type { Budget } from '../models/index.js';
import { accounts } from './chart.js';
import { dec, fixed } from './money.js';

export interface BudgetInput {
  account_id?: string;
  period_start?: string;
  period_end?: string;
  amount?: number;
  dimensions?: { department?: string | null; location?: string | null; project?: string | null };
  notes?: string;
}

const DIMENSIONS = ['department', 'location', 'project'] as const;

/** Budgets by period: reads and the events of every write (budgets are not searched). */
export const budgets = resource({
  model: 'budgets',
  label: 'Budget',
  order: [['period_start', 'ASC'], ['created_at', 'ASC'], ['id', 'ASC']],
  events: {
    created: (budget, ctx) => ['core.finance.budget.created', { budget_id: budget.id, account_id: budget.account_id, period_start: budget.period_start, period_end: budget.period_end, amount: fixed(dec(budget.amount)), created_by: ctx.member!.id }],
    updated: (budget, changed, ctx) => ['core.finance.budget.updated', { budget_id: budget.id, changed_fields: changed.map((field) => (DIMENSIONS.includes(field as never) ? `dimensions.${field}` : field)), updated_by: ctx.member!.id }],
  },
});

async function checkAccount(ctx: FinanceContext, accountId: string): Promise<void> {
  if (!(await accounts.find(ctx, accountId))) throw new InvalidError(`account_id: ${accountId} is not an account of this workspace`);
}

function checkPeriod(start: string, end: string): void {
  if (end < start) throw new InvalidError(`period_end: ${end} is before period_start ${start}`);
}

/** Creates a budget for one account and period, optionally per department, location and project. */
export async function createBudget(ctx: FinanceContext, input: BudgetInput): Promise<Budget> {
  await checkAccount(ctx, input.account_id!);
  checkPeriod(input.period_start!, input.period_end!);
  return budgets.create(ctx, {
    account_id: input.account_id!,
    period_start: input.period_start!,
    period_end: input.period_end!,
    amount: fixed(dec(input.amount!)),
    department: input.dimensions?.department ?? null,
    location: input.dimensions?.location ?? null,
    project: input.dimensions?.project ?? null,
    notes: input.notes ?? '',
    created_by: ctx.member.id,
  });
}

export function requireBudget(ctx: FinanceContext, id: string): Promise<Budget> {
  return budgets.require(ctx, id);
}

/** `PATCH`: the fields given change; a dimension set to null or "" is cleared. Nothing changed: no write, no event. */
export async function updateBudget(ctx: FinanceContext, id: string, input: BudgetInput): Promise<Budget> {
  const budget = await budgets.require(ctx, id, { lock: 'update' });
  const changes: Partial<Budget> = {};
  if (input.account_id !== undefined && input.account_id !== budget.account_id) {
    await checkAccount(ctx, input.account_id);
    changes.account_id = input.account_id;
  }
  changes.period_start = input.period_start;
  changes.period_end = input.period_end;
  checkPeriod(input.period_start ?? budget.period_start, input.period_end ?? budget.period_end);
  // Compared as decimals: 100 and "100.00" are the same amount.
  if (input.amount !== undefined && !dec(input.amount).equals(dec(budget.amount))) changes.amount = fixed(dec(input.amount));
  for (const dimension of DIMENSIONS) {
    const given = input.dimensions?.[dimension];
    if (given !== undefined) changes[dimension] = given === null || given === '' ? null : given;
  }
  changes.notes = input.notes;
  const { row } = await budgets.patch(ctx, budget, changes);
  return row;
}

export function listBudgets(ctx: FinanceContext, filters: { account_id?: string }): Promise<{ rows: Budget[]; count: number }> {
  return budgets.list(ctx, { where: filters.account_id ? { account_id: filters.account_id } : {} });
}
