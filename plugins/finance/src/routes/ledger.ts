import { Joi, Op } from '@wpk/sdk';
import { route, type FinanceContext } from '../kit.js';
import { AGING_ROW, AGING_TOTALS, BUDGET_ROW, BUDGET_TOTALS, JOURNAL_ENTRY, LEDGER_ACCOUNT, LEDGER_ROW, LEDGER_TOTALS, REPORT_EXPORT, TRIAL_BALANCE_ROW, TRIAL_BALANCE_TOTALS } from './answers.js';
import { presentEntry } from '../services/present.js';
import { apAging, budgetVsActual, generalLedger, toCsv, trialBalance, type Report } from '../services/reports.js';
import { format, id, isoDate } from './schemas.js';

/**
 * A report as JSON (the collection envelope, one page of rows, plus `totals` over every row) or
 * as CSV (`format=csv`): the file is stored in the app's storage, one per member and report,
 * replaced by each export, and the answer carries the CSV text and a signed download link
 * (`text/csv`, valid five minutes).
 */
async function answer<Row>(ctx: FinanceContext, name: string, report: Report<Row>, wanted: string | undefined, extra: Record<string, unknown> = {}) {
  if (wanted === 'csv') {
    const csv = toCsv(report);
    const key = `reports/${ctx.member.id}/${name}.csv`;
    await ctx.storage.put(key, csv, { contentType: 'text/csv' });
    const link = await ctx.storage.signedDownloadUrl(key, { filename: `${name}.csv` });
    return ctx.respond.single({ report: name, content_type: 'text/csv', filename: `${name}.csv`, rows: report.rows.length, csv, url: link.url, expires_at: link.expires_at }, { self: `/finance/reports/${name}` });
  }
  const page = report.rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit);
  return { ...ctx.respond.collection(page, report.rows.length), ...extra, totals: report.totals };
}

export const ledgerRoutes = [
  route({
    method: 'GET',
    path: '/finance/journal-entries',
    chain: ['finance.entries.read'],
    answers: { collection: JOURNAL_ENTRY },
    description: 'Lists journal entries with their lines, oldest first (filter: bill_id)',
    validate: { query: Joi.listQuery({ bill_id: id() }) },
    async handler(request, ctx) {
      const where = request.query.bill_id ? { bill_id: request.query.bill_id as string } : {};
      const { rows, count } = await ctx.db.journalEntries.findAndCountAll({ where, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
      const lines = rows.length ? await ctx.db.journalLines.findAll({ where: { entry_id: { [Op.in]: rows.map((entry) => entry.id) } }, order: [['line_no', 'ASC']] }) : [];
      const codes = new Map((lines.length ? await ctx.db.accounts.findAll({ where: { id: { [Op.in]: [...new Set(lines.map((line) => line.account_id))] } } }) : []).map((account) => [account.id, account.code]));
      return ctx.respond.collection(
        rows.map((entry) => presentEntry(entry, lines.filter((line) => line.entry_id === entry.id), codes)),
        count,
      );
    },
  }),
  route({
    method: 'GET',
    path: '/finance/reports/trial-balance',
    chain: ['finance.reports.read'],
    answers: { anyOf: [{ collection: TRIAL_BALANCE_ROW, alongside: { totals: TRIAL_BALANCE_TOTALS } }, { single: REPORT_EXPORT }] },
    description: 'Trial balance as of a date (default: everything posted)',
    validate: { query: Joi.listQuery({ as_of: isoDate(), format: format() }) },
    async handler(request, ctx) {
      return answer(ctx, 'trial-balance', await trialBalance(ctx, request.query), request.query.format as string | undefined);
    },
  }),
  route({
    method: 'GET',
    path: '/finance/reports/general-ledger',
    chain: ['finance.reports.read'],
    answers: { anyOf: [{ collection: LEDGER_ROW, alongside: { account: LEDGER_ACCOUNT, totals: LEDGER_TOTALS } }, { single: REPORT_EXPORT }] },
    description: 'General ledger of one account between two dates, with running balance',
    validate: { query: Joi.listQuery({ account_id: id().required(), from: isoDate(), to: isoDate(), format: format() }) },
    async handler(request, ctx) {
      const { account, ...report } = await generalLedger(ctx, request.query as { account_id: string; from?: string; to?: string });
      return answer(ctx, 'general-ledger', report, request.query.format as string | undefined, { account: { id: account.id, code: account.code, name: account.display_name ?? account.name, normal_balance: account.normal_balance } });
    },
  }),
  route({
    method: 'GET',
    path: '/finance/reports/ap-aging',
    chain: ['finance.reports.read'],
    answers: { anyOf: [{ collection: AGING_ROW, alongside: { totals: AGING_TOTALS } }, { single: REPORT_EXPORT }] },
    description: 'Accounts-payable aging per supplier as of a date (default today)',
    validate: { query: Joi.listQuery({ as_of: isoDate(), format: format() }) },
    async handler(request, ctx) {
      return answer(ctx, 'ap-aging', await apAging(ctx, request.query), request.query.format as string | undefined);
    },
  }),
  route({
    method: 'GET',
    path: '/finance/reports/budget-vs-actual',
    chain: ['finance.reports.read'],
    answers: { anyOf: [{ collection: BUDGET_ROW, alongside: { totals: BUDGET_TOTALS } }, { single: REPORT_EXPORT }] },
    description: 'Budget vs actual per value of a dimension (department, location or project)',
    validate: { query: Joi.listQuery({ dimension: Joi.string().valid('department', 'location', 'project'), from: isoDate(), to: isoDate(), format: format() }) },
    async handler(request, ctx) {
      return answer(ctx, 'budget-vs-actual', await budgetVsActual(ctx, request.query), request.query.format as string | undefined);
    },
  }),
];
