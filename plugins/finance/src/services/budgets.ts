import { InvalidError, NotFoundError } from '@wpk/sdk';
import type { Budget } from '../models/index.js';
import type { FinanceContext } from './context.js';
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

async function checkAccount(ctx: FinanceContext, accountId: string): Promise<void> {
  if (!(await ctx.db.accounts.findById(accountId))) throw new InvalidError(`account_id: ${accountId} is not an account of this workspace`);
}

function checkPeriod(start: string, end: string): void {
  if (end < start) throw new InvalidError(`period_end: ${end} is before period_start ${start}`);
}

/** Creates a budget for one account and period, optionally per department, location and project. */
export async function createBudget(ctx: FinanceContext, input: BudgetInput): Promise<Budget> {
  await checkAccount(ctx, input.account_id!);
  checkPeriod(input.period_start!, input.period_end!);
  const budget = await ctx.db.budgets.create({
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
  ctx.events.stage('core.finance.budget.created', { budget_id: budget.id, account_id: budget.account_id, period_start: budget.period_start, period_end: budget.period_end, amount: fixed(dec(budget.amount)), created_by: ctx.member.id });
  return (await ctx.db.budgets.findById(budget.id))!;
}

export async function requireBudget(ctx: FinanceContext, id: string, lock = false): Promise<Budget> {
  const budget = await ctx.db.budgets.findById(id, lock ? { lock: 'update' } : {});
  if (!budget) throw new NotFoundError('Budget not found');
  return budget;
}

/** `PATCH`: the fields given change; a dimension set to null or "" is cleared. Nothing changed: no event. */
export async function updateBudget(ctx: FinanceContext, id: string, input: BudgetInput): Promise<Budget> {
  const budget = await requireBudget(ctx, id, true);
  const changes: Partial<Budget> = {};
  if (input.account_id !== undefined && input.account_id !== budget.account_id) {
    await checkAccount(ctx, input.account_id);
    changes.account_id = input.account_id;
  }
  if (input.period_start !== undefined && input.period_start !== budget.period_start) changes.period_start = input.period_start;
  if (input.period_end !== undefined && input.period_end !== budget.period_end) changes.period_end = input.period_end;
  checkPeriod(changes.period_start ?? budget.period_start, changes.period_end ?? budget.period_end);
  if (input.amount !== undefined && !dec(input.amount).equals(dec(budget.amount))) changes.amount = fixed(dec(input.amount));
  for (const dimension of DIMENSIONS) {
    const given = input.dimensions?.[dimension];
    if (given === undefined) continue;
    const value = given === null || given === '' ? null : given;
    if (value !== budget[dimension]) changes[dimension] = value;
  }
  if (input.notes !== undefined && input.notes !== budget.notes) changes.notes = input.notes;
  const fields = Object.keys(changes);
  if (fields.length === 0) return budget;
  await ctx.db.budgets.update(changes, { where: { id } });
  ctx.events.stage('core.finance.budget.updated', { budget_id: id, changed_fields: fields.map((field) => (DIMENSIONS.includes(field as never) ? `dimensions.${field}` : field)), updated_by: ctx.member.id });
  return (await ctx.db.budgets.findById(id))!;
}

export async function listBudgets(ctx: FinanceContext, filters: { account_id?: string }): Promise<{ rows: Budget[]; count: number }> {
  const where: Record<string, unknown> = {};
  if (filters.account_id) where.account_id = filters.account_id;
  return ctx.db.budgets.findAndCountAll({ where, order: [['period_start', 'ASC'], ['created_at', 'ASC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}
