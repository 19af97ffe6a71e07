import { DataTypes, defineModel } from '@wpk/sdk';

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
export interface Account {
  id: string;
  code: string;
  name: string;
  type: AccountType;
  parent_id: string | null;
  description: string;
  normal_balance: NormalBalance;
  is_contra: boolean;
  is_bank: boolean;
  display_name: string | null;
  show_in_unified: boolean;
  /** The role a seeded account plays in postings (`payables`, `input_tax`, ...), or null. */
  system_role: string | null;
  created_at: Date;
  updated_at: Date;
}

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
export interface Bill {
  id: string;
  status: BillStatus;
  date: string;
  due_date: string | null;
  currency: string;
  exchange_rate: string;
  base_currency: string;
  company_mrn: string | null;
  contact_mrn: string | null;
  memo: string;
  tags: string[];
  dimensions: Record<string, string>;
  sources: string[];
  items: StoredItem[];
  adjustments: StoredAdjustment[];
  subtotal: string;
  tax_total: string;
  adjustment_total: string;
  total: string;
  base_total: string;
  idempotency_key: string | null;
  created_by: string;
  received_at: Date | null;
  approved_at: Date | null;
  voided_at: Date | null;
  journal_entry_id: string | null;
  reversal_entry_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A posted journal entry: immutable once written (a database trigger refuses UPDATE and DELETE). */
export interface JournalEntry {
  id: string;
  bill_id: string | null;
  kind: 'bill' | 'reversal';
  reverses_id: string | null;
  date: string;
  memo: string;
  currency: string;
  created_by: string;
  created_at: Date;
}

/** One line of an entry: exactly one of debit and credit is non-zero, both in the base currency. */
export interface JournalLine {
  id: string;
  entry_id: string;
  line_no: number;
  account_id: string;
  debit: string;
  credit: string;
  currency: string;
  amount_currency: string;
  description: string;
  dimensions: Record<string, string>;
  date: string;
}

/** A budget of one account for one period, optionally for one department/location/project. */
export interface Budget {
  id: string;
  account_id: string;
  period_start: string;
  period_end: string;
  amount: string;
  department: string | null;
  location: string | null;
  project: string | null;
  notes: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** One row per workspace once the default chart is seeded. */
export interface Book {
  id: string;
  seeded_at: Date;
}

const uuid = { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 };
const money = (allowNull = false) => ({ type: DataTypes.DECIMAL(20, 2), allowNull });

export const accounts = defineModel<Account>('accounts', {
  id: uuid,
  code: { type: DataTypes.STRING(20), allowNull: false },
  name: { type: DataTypes.STRING(200), allowNull: false },
  type: { type: DataTypes.STRING(20), allowNull: false },
  parent_id: { type: DataTypes.UUID, allowNull: true },
  description: { type: DataTypes.STRING(1000), allowNull: false, defaultValue: '' },
  normal_balance: { type: DataTypes.STRING(6), allowNull: false },
  is_contra: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  is_bank: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  display_name: { type: DataTypes.STRING(200), allowNull: true },
  show_in_unified: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
  system_role: { type: DataTypes.STRING(40), allowNull: true },
});

export const bills = defineModel<Bill>('bills', {
  id: uuid,
  status: { type: DataTypes.STRING(10), allowNull: false },
  date: { type: DataTypes.STRING(10), allowNull: false },
  due_date: { type: DataTypes.STRING(10), allowNull: true },
  currency: { type: DataTypes.STRING(3), allowNull: false },
  exchange_rate: { type: DataTypes.DECIMAL(20, 10), allowNull: false },
  base_currency: { type: DataTypes.STRING(3), allowNull: false },
  company_mrn: { type: DataTypes.STRING(300), allowNull: true },
  contact_mrn: { type: DataTypes.STRING(300), allowNull: true },
  memo: { type: DataTypes.STRING(5000), allowNull: false, defaultValue: '' },
  tags: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  dimensions: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
  sources: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  items: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  adjustments: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  subtotal: money(),
  tax_total: money(),
  adjustment_total: money(),
  total: money(),
  base_total: money(),
  idempotency_key: { type: DataTypes.STRING(100), allowNull: true },
  created_by: { type: DataTypes.UUID, allowNull: false },
  received_at: { type: DataTypes.DATE, allowNull: true },
  approved_at: { type: DataTypes.DATE, allowNull: true },
  voided_at: { type: DataTypes.DATE, allowNull: true },
  journal_entry_id: { type: DataTypes.UUID, allowNull: true },
  reversal_entry_id: { type: DataTypes.UUID, allowNull: true },
});

export const journalEntries = defineModel<JournalEntry>(
  'journal_entries',
  {
    id: uuid,
    bill_id: { type: DataTypes.UUID, allowNull: true },
    kind: { type: DataTypes.STRING(10), allowNull: false },
    reverses_id: { type: DataTypes.UUID, allowNull: true },
    date: { type: DataTypes.STRING(10), allowNull: false },
    memo: { type: DataTypes.STRING(5000), allowNull: false, defaultValue: '' },
    currency: { type: DataTypes.STRING(3), allowNull: false },
    created_by: { type: DataTypes.UUID, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
  },
  { timestamps: false },
);

export const journalLines = defineModel<JournalLine>(
  'journal_lines',
  {
    id: uuid,
    entry_id: { type: DataTypes.UUID, allowNull: false },
    line_no: { type: DataTypes.INTEGER, allowNull: false },
    account_id: { type: DataTypes.UUID, allowNull: false },
    debit: money(),
    credit: money(),
    currency: { type: DataTypes.STRING(3), allowNull: false },
    amount_currency: money(),
    description: { type: DataTypes.STRING(5000), allowNull: false, defaultValue: '' },
    dimensions: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    date: { type: DataTypes.STRING(10), allowNull: false },
  },
  { timestamps: false },
);

export const budgets = defineModel<Budget>('budgets', {
  id: uuid,
  account_id: { type: DataTypes.UUID, allowNull: false },
  period_start: { type: DataTypes.STRING(10), allowNull: false },
  period_end: { type: DataTypes.STRING(10), allowNull: false },
  amount: money(),
  department: { type: DataTypes.STRING(200), allowNull: true },
  location: { type: DataTypes.STRING(200), allowNull: true },
  project: { type: DataTypes.STRING(200), allowNull: true },
  notes: { type: DataTypes.STRING(2000), allowNull: false, defaultValue: '' },
  created_by: { type: DataTypes.UUID, allowNull: false },
});

export const books = defineModel<Book>('books', { id: uuid, seeded_at: { type: DataTypes.DATE, allowNull: false } }, { timestamps: false });

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { accounts, bills, journalEntries, journalLines, budgets, books };

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
