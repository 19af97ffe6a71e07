import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { BUDGET } from './answers.js';
import { createBudget, listBudgets, requireBudget, updateBudget } from '../services/budgets.js';
import { presentBudget } from '../services/present.js';
import { budgetBody, id } from './schemas.js';

/** Budgets per account and period, with department/location/project dimensions. */
export const budgetRoutes = [
  route({
    method: 'GET',
    path: '/finance/budgets',
    chain: ['finance.budgets.read'],
    answers: { collection: BUDGET },
    description: 'Lists budgets by period (filter: account_id)',
    validate: { query: Joi.listQuery({ account_id: id() }) },
    async handler(request, ctx) {
      const { rows, count } = await listBudgets(ctx, request.query);
      return ctx.respond.collection(rows.map(presentBudget), count);
    },
  }),
  route({
    method: 'POST',
    path: '/finance/budgets',
    chain: ['finance.budgets.create'],
    answers: { single: BUDGET },
    description: 'Creates a budget',
    validate: { payload: budgetBody(true) },
    async handler(request, ctx) {
      const budget = await createBudget(ctx, request.payload);
      return ctx.respond.single(presentBudget(budget), { self: `/finance/budgets/${budget.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/finance/budgets/{budget_id}',
    chain: ['finance.budgets.read'],
    answers: { single: BUDGET },
    description: 'Reads a budget',
    validate: { params: Joi.idParams('budget_id') },
    async handler(request, ctx) {
      const budget = await requireBudget(ctx, request.params.budget_id!);
      return ctx.respond.single(presentBudget(budget), { self: `/finance/budgets/${budget.id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/finance/budgets/{budget_id}',
    chain: ['finance.budgets.edit'],
    answers: { single: BUDGET },
    description: 'Edits a budget',
    validate: { params: Joi.idParams('budget_id'), payload: budgetBody(false) },
    async handler(request, ctx) {
      const budget = await updateBudget(ctx, request.params.budget_id!, request.payload);
      return ctx.respond.single(presentBudget(budget), { self: `/finance/budgets/${budget.id}` });
    },
  }),
];
