import type { Account, Bill, Budget, JournalEntry, JournalLine } from '../models/index.js';
import { dec, fixed } from './money.js';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function presentAccount(account: Account) {
  return {
    id: account.id,
    code: account.code,
    name: account.name,
    display_name: account.display_name,
    type: account.type,
    parent_id: account.parent_id,
    description: account.description,
    normal_balance: account.normal_balance,
    is_contra: account.is_contra,
    is_bank: account.is_bank,
    show_in_unified: account.show_in_unified,
    system_role: account.system_role,
    created_at: iso(account.created_at),
    updated_at: iso(account.updated_at),
  };
}

const money = (value: string) => fixed(dec(value));

export function presentBill(bill: Bill) {
  return {
    id: bill.id,
    status: bill.status,
    date: bill.date,
    due_date: bill.due_date,
    currency: bill.currency,
    exchange_rate: dec(bill.exchange_rate).toString(),
    base_currency: bill.base_currency,
    company_mrn: bill.company_mrn,
    contact_mrn: bill.contact_mrn,
    memo: bill.memo,
    tags: bill.tags,
    dimensions: bill.dimensions,
    sources: bill.sources,
    items: bill.items,
    adjustments: bill.adjustments,
    subtotal: money(bill.subtotal),
    tax_total: money(bill.tax_total),
    adjustment_total: money(bill.adjustment_total),
    total: money(bill.total),
    base_total: money(bill.base_total),
    idempotency_key: bill.idempotency_key,
    journal_entry_id: bill.journal_entry_id,
    reversal_entry_id: bill.reversal_entry_id,
    created_by: bill.created_by,
    created_at: iso(bill.created_at),
    updated_at: iso(bill.updated_at),
    received_at: iso(bill.received_at),
    approved_at: iso(bill.approved_at),
    voided_at: iso(bill.voided_at),
  };
}

export function presentBudget(budget: Budget) {
  return {
    id: budget.id,
    account_id: budget.account_id,
    period_start: budget.period_start,
    period_end: budget.period_end,
    amount: money(budget.amount),
    dimensions: { department: budget.department, location: budget.location, project: budget.project },
    notes: budget.notes,
    created_by: budget.created_by,
    created_at: iso(budget.created_at),
    updated_at: iso(budget.updated_at),
  };
}

export function presentEntry(entry: JournalEntry, lines: JournalLine[], codes: Map<string, string>) {
  return {
    id: entry.id,
    kind: entry.kind,
    bill_id: entry.bill_id,
    reverses_id: entry.reverses_id,
    date: entry.date,
    memo: entry.memo,
    currency: entry.currency,
    created_by: entry.created_by,
    created_at: iso(entry.created_at),
    lines: lines.map((line) => ({
      line_no: line.line_no,
      account_id: line.account_id,
      account_code: codes.get(line.account_id) ?? null,
      debit: money(line.debit),
      credit: money(line.credit),
      currency: line.currency,
      amount_currency: money(line.amount_currency),
      description: line.description,
    })),
  };
}
