import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { BUDGET } from './answers.js';
import { createBudget, listBudgets, requireBudget, updateBudget } from '../services/budgets.js';
import { presentBudget } from '../services/present.js';
import { budgetBody, id } from './schemas.js';

const budgets = routeFamily('/finance/budgets', { record: BUDGET });
const budget = budgets.at('/{budget_id}', { params: Joi.idParams('budget_id') });

/** Budgets per account and period, with department/location/project dimensions. */
export const budgetRoutes = [
  budgets.list({
    chain: ['finance.budgets.read'],
    description: 'Lists budgets by period (filter: account_id)',
    query: Joi.listQuery({ account_id: id() }),
    async handler(request, ctx) {
      const { rows, count } = await listBudgets(ctx, request.query);
      return ctx.respond.collection(rows.map(presentBudget), count);
    },
  }),
  budgets.post({
    chain: ['finance.budgets.create'],
    description: 'Creates a budget',
    payload: budgetBody(true),
    async handler(request, ctx) {
      const budget = await createBudget(ctx, request.payload);
      return ctx.respond.single(presentBudget(budget), { self: `/finance/budgets/${budget.id}` });
    },
  }),
  budget.get({
    chain: ['finance.budgets.read'],
    description: 'Reads a budget',
    async handler(request, ctx) {
      const budget = await requireBudget(ctx, request.params.budget_id!);
      return ctx.respond.single(presentBudget(budget), { self: `/finance/budgets/${budget.id}` });
    },
  }),
  budget.patch({
    chain: ['finance.budgets.edit'],
    description: 'Edits a budget',
    payload: budgetBody(false),
    async handler(request, ctx) {
      const budget = await updateBudget(ctx, request.params.budget_id!, request.payload);
      return ctx.respond.single(presentBudget(budget), { self: `/finance/budgets/${budget.id}` });
    },
  }),
];
