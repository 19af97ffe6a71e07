import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { ACCOUNT } from './answers.js';
import { createAccount, listAccounts, requireAccount, updateAccount } from '../services/chart.js';
import { presentAccount } from '../services/present.js';
import { accountType, normalBalance } from './schemas.js';

const accounts = routeFamily('/finance/accounts', { record: ACCOUNT });
const account = accounts.at('/{account_id}', { params: Joi.idParams('account_id') });

/** The chart of accounts: list, add, read, and set the display name and unified-view flag. */
export const accountRoutes = [
  accounts.list({
    chain: ['finance.accounts.read'],
    description: 'Lists the chart of accounts by code (filters: type, is_bank, q)',
    query: Joi.listQuery({ type: accountType(), is_bank: Joi.boolean(), q: Joi.string().max(200).allow('') }),
    async handler(request, ctx) {
      const { rows, count } = await listAccounts(ctx, request.query);
      return ctx.respond.collection(rows.map(presentAccount), count);
    },
  }),
  accounts.post({
    chain: ['finance.accounts.create'],
    description: 'Adds an account to the chart',
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
    async handler(request, ctx) {
      const account = await createAccount(ctx, request.payload);
      return ctx.respond.single(presentAccount(account), { self: `/finance/accounts/${account.id}` });
    },
  }),
  account.get({
    chain: ['finance.accounts.read'],
    description: 'Reads an account',
    async handler(request, ctx) {
      const account = await requireAccount(ctx, request.params.account_id!);
      return ctx.respond.single(presentAccount(account), { self: `/finance/accounts/${account.id}`, ledger: `/finance/reports/general-ledger?account_id=${account.id}` });
    },
  }),
  account.put({
    chain: ['finance.accounts.edit'],
    description: "Sets an account's display name and show_in_unified",
    payload: Joi.object({ display_name: Joi.string().max(200).allow('', null), show_in_unified: Joi.boolean() }),
    async handler(request, ctx) {
      const account = await updateAccount(ctx, request.params.account_id!, request.payload);
      return ctx.respond.single(presentAccount(account), { self: `/finance/accounts/${account.id}` });
    },
  }),
];
