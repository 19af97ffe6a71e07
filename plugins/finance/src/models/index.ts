import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** Account types of the chart (the five classes of double-entry bookkeeping). */
export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Which side of an account grows it. */
export const NORMAL_BALANCES = ['debit', 'credit'] as const;
export type NormalBalance = (typeof NORMAL_BALANCES)[number];

/** A bill's states: draft (editable), received, approved (posted), void (terminal). */
export const BILL_STATUSES = ['draft', 'received', 'approved', 'void'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];

/** An account of the chart. Accounts are never deleted (posted lines point at them). */
export type Account = DeclaredRow<typeof accounts>;

/** A tax line of a bill item, as stored (decimal strings). */
export interface StoredTax {
  name: string;
  rate: string | null;
  amount: string;
  reverse_charge: boolean;
}

/** A bill item, as stored: what was given, and the computed `amount` (decimal strings). */
export interface StoredItem {
  description: string;
  quantity: string | null;
  unit_price: string | null;
  discount: string | null;
  amount: string;
  account_code: string;
  product_mrn: string | null;
  taxes: StoredTax[];
}

/** An adjustment of a bill, as stored (`amount` signed: a discount is negative). */
export interface StoredAdjustment {
  label: string;
  type: 'discount' | 'charge';
  value: string | null;
  amount: string;
  account_code: string;
}

/** A bill (accounts payable). Totals are in the bill's currency; `base_total` in the base currency. */
export type Bill = DeclaredRow<typeof bills>;

/** A posted journal entry: immutable once written (a database trigger refuses UPDATE and DELETE). */
export type JournalEntry = DeclaredRow<typeof journalEntries>;

/** One line of an entry: exactly one of debit and credit is non-zero, both in the base currency. */
export type JournalLine = DeclaredRow<typeof journalLines>;

/** A budget of one account for one period, optionally for one department/location/project. */
export type Budget = DeclaredRow<typeof budgets>;

/** One row per workspace once the default chart is seeded. */
export type Book = DeclaredRow<typeof books>;

export const accounts = defineModel('accounts', {
  id: column.uuid().primaryKey().defaultRandom(),
  code: column.string(20),
  name: column.string(200),
  type: column.enum(ACCOUNT_TYPES, 20),
  parent_id: column.uuid().nullable(),
  description: column.string(1000).default(''),
  normal_balance: column.enum(NORMAL_BALANCES, 6),
  is_contra: column.boolean().default(false),
  is_bank: column.boolean().default(false),
  display_name: column.string(200).nullable(),
  show_in_unified: column.boolean().default(true),
  /** The role a seeded account plays in postings (`payables`, `input_tax`, ...), or null. */
  system_role: column.string(40).nullable(),
});

export const bills = defineModel('bills', {
  id: column.uuid().primaryKey().defaultRandom(),
  status: column.enum(BILL_STATUSES, 10),
  date: column.string(10),
  due_date: column.string(10).nullable(),
  currency: column.string(3),
  exchange_rate: column.decimal(20, 10),
  base_currency: column.string(3),
  company_mrn: column.string(300).nullable(),
  contact_mrn: column.string(300).nullable(),
  memo: column.string(5000).default(''),
  tags: column.json<string[]>().default([]),
  dimensions: column.json<Record<string, string>>().default({}),
  sources: column.json<string[]>().default([]),
  items: column.json<StoredItem[]>().default([]),
  adjustments: column.json<StoredAdjustment[]>().default([]),
  subtotal: column.decimal(20, 2),
  tax_total: column.decimal(20, 2),
  adjustment_total: column.decimal(20, 2),
  total: column.decimal(20, 2),
  base_total: column.decimal(20, 2),
  idempotency_key: column.string(100).nullable(),
  created_by: column.uuid(),
  received_at: column.date().nullable(),
  approved_at: column.date().nullable(),
  voided_at: column.date().nullable(),
  journal_entry_id: column.uuid().nullable(),
  reversal_entry_id: column.uuid().nullable(),
});

export const journalEntries = defineModel(
  'journal_entries',
  {
  id: column.uuid().primaryKey().defaultRandom(),
  bill_id: column.uuid().nullable(),
  kind: column.string(10).of<'bill' | 'reversal'>(),
  reverses_id: column.uuid().nullable(),
  date: column.string(10),
  memo: column.string(5000).default(''),
  currency: column.string(3),
  created_by: column.uuid(),
  created_at: column.date(),
},
  { timestamps: false },
);

export const journalLines = defineModel(
  'journal_lines',
  {
  id: column.uuid().primaryKey().defaultRandom(),
  entry_id: column.uuid(),
  line_no: column.integer(),
  account_id: column.uuid(),
  debit: column.decimal(20, 2),
  credit: column.decimal(20, 2),
  currency: column.string(3),
  amount_currency: column.decimal(20, 2),
  description: column.string(5000).default(''),
  dimensions: column.json<Record<string, string>>().default({}),
  date: column.string(10),
},
  { timestamps: false },
);

export const budgets = defineModel('budgets', {
  id: column.uuid().primaryKey().defaultRandom(),
  account_id: column.uuid(),
  period_start: column.string(10),
  period_end: column.string(10),
  amount: column.decimal(20, 2),
  department: column.string(200).nullable(),
  location: column.string(200).nullable(),
  project: column.string(200).nullable(),
  notes: column.string(2000).default(''),
  created_by: column.uuid(),
});

export const books = defineModel('books', {
  id: column.uuid().primaryKey().defaultRandom(),
  seeded_at: column.date(),
}, { timestamps: false });

/** The organisation profile as the Settings app last announced it (its base currency), one row per workspace. */
export const organizationCopy = defineModel('organization_copy', {
  source: column.string(20).primaryKey(),
  base_currency: column.string(3),
  revision: column.integer(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { accounts, bills, journalEntries, journalLines, budgets, books, organizationCopy };

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
