import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { ACCOUNT } from './answers.js';
import { createAccount, listAccounts, requireAccount, updateAccount } from '../services/chart.js';
import { presentAccount } from '../services/present.js';
import { accountType, normalBalance } from './schemas.js';

/** The chart of accounts: list, add, read, and set the display name and unified-view flag. */
export const accountRoutes = [
  route({
    method: 'GET',
    path: '/finance/accounts',
    chain: ['finance.accounts.read'],
    answers: { collection: ACCOUNT },
    description: 'Lists the chart of accounts by code (filters: type, is_bank, q)',
    validate: { query: Joi.listQuery({ type: accountType(), is_bank: Joi.boolean(), q: Joi.string().max(200).allow('') }) },
    async handler(request, ctx) {
      const { rows, count } = await listAccounts(ctx, request.query);
      return ctx.respond.collection(rows.map(presentAccount), count);
    },
  }),
  route({
    method: 'POST',
    path: '/finance/accounts',
    chain: ['finance.accounts.create'],
    answers: { single: ACCOUNT },
    description: 'Adds an account to the chart',
    validate: {
      payload: Joi.object({
        code: Joi.string().trim().min(1).max(20).pattern(/^[\p{L}\p{N}._-]+$/u).required().messages({ 'string.pattern.base': '{#label} may hold letters, digits, ".", "_" and "-" only' }),
        name: Joi.string().trim().min(1).max(200).required(),
        type: accountType().required(),
        parent_id: Joi.id(),
        description: Joi.string().max(1000).allow(''),
        normal_balance: normalBalance(),
        is_contra: Joi.boolean(),
        is_bank: Joi.boolean(),
      }),
    },
    async handler(request, ctx) {
      const account = await createAccount(ctx, request.payload);
      return ctx.respond.single(presentAccount(account), { self: `/finance/accounts/${account.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/finance/accounts/{account_id}',
    chain: ['finance.accounts.read'],
    answers: { single: ACCOUNT },
    description: 'Reads an account',
    validate: { params: Joi.idParams('account_id') },
    async handler(request, ctx) {
      const account = await requireAccount(ctx, request.params.account_id!);
      return ctx.respond.single(presentAccount(account), { self: `/finance/accounts/${account.id}`, ledger: `/finance/reports/general-ledger?account_id=${account.id}` });
    },
  }),
  route({
    method: 'PUT',
    path: '/finance/accounts/{account_id}',
    chain: ['finance.accounts.edit'],
    answers: { single: ACCOUNT },
    description: "Sets an account's display name and show_in_unified",
    validate: { params: Joi.idParams('account_id'), payload: Joi.object({ display_name: Joi.string().max(200).allow('', null), show_in_unified: Joi.boolean() }) },
    async handler(request, ctx) {
      const account = await updateAccount(ctx, request.params.account_id!, request.payload);
      return ctx.respond.single(presentAccount(account), { self: `/finance/accounts/${account.id}` });
    },
  }),
];
