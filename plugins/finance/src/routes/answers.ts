import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { ACCOUNT_TYPES, BILL_STATUSES, NORMAL_BALANCES } from '../models/index.js';

/**
 * The records the app answers with (services/present.ts builds them), as the routes declare them
 * (`answers`): the OpenAPI document, the typed client and the harness's response checks read them.
 * A report answers the collection envelope with `totals` (and `account`) beside it, or with
 * `format=csv` the export (`REPORT_EXPORT`): it declares both (`anyOf`).
 */

const amount = () => Joi.string().pattern(/^-?\d+\.\d{2}$/).description('An exact decimal, as a string');
const nullableText = () => Joi.string().allow(null, '');

export const ACCOUNT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  code: Joi.string(),
  name: Joi.string(),
  display_name: Joi.string().allow(null),
  type: Joi.string().valid(...ACCOUNT_TYPES),
  parent_id: field.uuid().allow(null),
  description: Joi.string().allow(''),
  normal_balance: Joi.string().valid(...NORMAL_BALANCES),
  is_contra: Joi.boolean(),
  is_bank: Joi.boolean(),
  show_in_unified: Joi.boolean(),
  system_role: Joi.string().allow(null).description('The posting role of a seeded account (payables, input_tax, ...)'),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('FinanceAccount');

const TAX = recordSchema({ name: Joi.string(), rate: field.decimal().allow(null), amount: amount(), reverse_charge: Joi.boolean() });

const ITEM = recordSchema({
  description: Joi.string().allow(''),
  quantity: field.decimal().allow(null),
  unit_price: field.decimal().allow(null),
  discount: field.decimal().allow(null),
  amount: amount(),
  account_code: Joi.string().allow(''),
  product_mrn: Joi.string().allow(null),
  taxes: Joi.array().items(TAX),
});

const ADJUSTMENT = recordSchema({ label: Joi.string(), type: Joi.string().valid('discount', 'charge'), value: field.decimal().allow(null), amount: amount(), account_code: Joi.string().allow('') });

export const BILL: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  status: Joi.string().valid(...BILL_STATUSES),
  date: field.date(),
  due_date: field.date().allow(null),
  currency: Joi.string().length(3),
  exchange_rate: field.decimal(),
  base_currency: Joi.string().length(3),
  company_mrn: Joi.string().allow(null),
  contact_mrn: Joi.string().allow(null),
  memo: Joi.string().allow(''),
  tags: Joi.array().items(Joi.string()),
  dimensions: Joi.object({ department: nullableText(), location: nullableText(), project: nullableText() }),
  sources: Joi.array().items(Joi.string()),
  items: Joi.array().items(ITEM),
  adjustments: Joi.array().items(ADJUSTMENT),
  subtotal: amount(),
  tax_total: amount(),
  adjustment_total: amount(),
  total: amount(),
  base_total: amount(),
  idempotency_key: Joi.string().allow(null),
  journal_entry_id: field.uuid().allow(null),
  reversal_entry_id: field.uuid().allow(null),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
  received_at: field.optionalInstant(),
  approved_at: field.optionalInstant(),
  voided_at: field.optionalInstant(),
}).id('FinanceBill');

export const BUDGET: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  account_id: field.uuid(),
  period_start: field.date(),
  period_end: field.date(),
  amount: amount(),
  dimensions: recordSchema({ department: Joi.string().allow(null), location: Joi.string().allow(null), project: Joi.string().allow(null) }),
  notes: Joi.string().allow(''),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('FinanceBudget');

const LINE = recordSchema({
  line_no: Joi.number().integer(),
  account_id: field.uuid(),
  account_code: Joi.string().allow(null),
  debit: amount(),
  credit: amount(),
  currency: Joi.string().length(3),
  amount_currency: amount(),
  description: Joi.string().allow(''),
});

export const JOURNAL_ENTRY: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  kind: Joi.string().valid('bill', 'reversal'),
  bill_id: field.uuid().allow(null),
  reverses_id: field.uuid().allow(null),
  date: field.date(),
  memo: Joi.string().allow(''),
  currency: Joi.string().length(3),
  created_by: field.uuid(),
  created_at: field.instant(),
  lines: Joi.array().items(LINE),
}).id('FinanceJournalEntry');

/** A report with `format=csv`: the CSV text, and a download link to the stored file. */
export const REPORT_EXPORT: JoiObjectSchema = recordSchema({
  report: Joi.string().valid('trial-balance', 'general-ledger', 'ap-aging', 'budget-vs-actual'),
  content_type: Joi.string().valid('text/csv'),
  filename: Joi.string(),
  rows: field.count().description('Rows in the file, besides the header and the totals'),
  csv: Joi.string(),
  url: Joi.string().uri().description('A download link valid five minutes'),
  expires_at: field.instant(),
}).id('FinanceReportExport');

export const TRIAL_BALANCE_ROW: JoiObjectSchema = recordSchema({
  account_id: field.uuid(),
  code: Joi.string(),
  name: Joi.string(),
  type: Joi.string().valid(...ACCOUNT_TYPES),
  debit: amount(),
  credit: amount(),
  balance_debit: amount(),
  balance_credit: amount(),
}).id('FinanceTrialBalanceRow');
export const TRIAL_BALANCE_TOTALS: JoiObjectSchema = recordSchema({
  debit: amount(), credit: amount(), balance_debit: amount(), balance_credit: amount(), balance: amount().description('Debits − credits: 0.00 when the books balance'),
}).id('FinanceTrialBalanceTotals');

export const LEDGER_ROW: JoiObjectSchema = recordSchema({
  date: field.date(),
  entry_id: field.uuid().allow(null).description('Null on the opening balance'),
  bill_id: field.uuid().allow(null),
  line_no: Joi.number().integer().min(1).allow(null),
  description: Joi.string().allow(''),
  debit: amount(),
  credit: amount(),
  balance: amount().description("The running balance, on the account's normal side"),
}).id('FinanceLedgerRow');
export const LEDGER_TOTALS: JoiObjectSchema = recordSchema({ debit: amount(), credit: amount(), balance: amount() }).id('FinanceLedgerTotals');
export const LEDGER_ACCOUNT: JoiObjectSchema = recordSchema({ id: field.uuid(), code: Joi.string(), name: Joi.string(), normal_balance: Joi.string().valid(...NORMAL_BALANCES) }).id('FinanceLedgerAccount');

export const AGING_ROW: JoiObjectSchema = recordSchema({
  company_mrn: Joi.string().allow(null).description('The supplier; null for bills without one'),
  bills: Joi.number().integer().min(1),
  current: amount(),
  days_1_30: amount(),
  days_31_60: amount(),
  days_61_90: amount(),
  days_over_90: amount(),
  total: amount(),
}).id('FinanceAgingRow');
export const AGING_TOTALS: JoiObjectSchema = recordSchema({
  current: amount(), days_1_30: amount(), days_31_60: amount(), days_61_90: amount(), days_over_90: amount(), total: amount(),
}).id('FinanceAgingTotals');

export const BUDGET_ROW: JoiObjectSchema = recordSchema({
  dimension: Joi.string().valid('department', 'location', 'project'),
  value: Joi.string().allow(null).description("The budget's value of the dimension; null: every line of the account"),
  budget_id: field.uuid(),
  account_id: field.uuid(),
  code: Joi.string(),
  name: Joi.string(),
  period_start: field.date(),
  period_end: field.date(),
  budget: amount(),
  actual: amount(),
  variance: amount().description('Budget − actual'),
}).id('FinanceBudgetRow');
export const BUDGET_TOTALS: JoiObjectSchema = recordSchema({ budget: amount(), actual: amount(), variance: amount() }).id('FinanceBudgetTotals');
