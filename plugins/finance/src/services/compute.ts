import { InvalidError } from '@wpk/sdk';
import type { Account, Bill, StoredAdjustment, StoredItem, StoredTax } from '../models/index.js';
import { D, dec, fixed, round, sum, type Dec } from './money.js';

/** Amounts (and base amounts) of a bill stay below 10^15, so every sum fits `numeric(20,2)`. */
const LIMIT = new D('1e15');

/** A bill item as the request gives it (JSON numbers). */
export interface ItemInput {
  description?: string;
  quantity?: number;
  unit_price?: number;
  discount?: number;
  amount?: number;
  account_code?: string;
  product_mrn?: string;
  taxes?: Array<{ name?: string; rate?: number; amount?: number; reverse_charge?: boolean }>;
}

export interface AdjustmentInput {
  label?: string;
  type?: 'discount' | 'charge';
  value?: number;
  amount?: number;
  account_code?: string;
}

/** Everything a bill's amounts depend on. */
export interface BillAmountsInput {
  currency: string;
  exchange_rate: string;
  base_currency: string;
  items: ItemInput[];
  adjustments: AdjustmentInput[];
}

/** The fields of a bill its lines and rates determine. */
export type ComputedBill = Pick<Bill, 'items' | 'adjustments' | 'subtotal' | 'tax_total' | 'adjustment_total' | 'total' | 'base_total'>;

/**
 * The amounts of a bill, exactly:
 * - an item's amount is `quantity × unit_price − discount` (quantity defaults to 1, discount is an
 *   amount, not a percentage), rounded to the currency; or the explicit `amount`, which must then
 *   agree with the product when `unit_price` is given too;
 * - a tax line is its explicit `amount` (the supplier's document is the authority), else
 *   `item amount × rate / 100` rounded; a reverse-charge tax is not added to the total (the
 *   supplier does not charge it; the buyer self-assesses it);
 * - an adjustment is its explicit `amount`, else `value`% of the subtotal, rounded; a discount
 *   lowers the total, a charge raises it;
 * - total = subtotal + charged tax + adjustments; base_total = total × exchange_rate, rounded to
 *   the base currency.
 */
export function computeBill(input: BillAmountsInput): ComputedBill {
  const { currency } = input;
  const items: StoredItem[] = input.items.map((item, index) => {
    const at = `items[${index}]`;
    let amount: Dec;
    const quantity = item.quantity === undefined ? null : dec(item.quantity);
    const unitPrice = item.unit_price === undefined ? null : dec(item.unit_price);
    const discount = item.discount === undefined ? null : dec(item.discount);
    if (unitPrice !== null) {
      const gross = round((quantity ?? new D(1)).times(unitPrice), currency);
      if (discount !== null && discount.greaterThan(gross)) throw new InvalidError(`${at}.discount: ${fixed(discount)} is more than quantity × unit_price (${fixed(gross)})`);
      amount = gross.minus(discount ?? 0);
      if (item.amount !== undefined && !dec(item.amount).equals(amount)) {
        throw new InvalidError(`${at}.amount: ${fixed(dec(item.amount))} is not quantity × unit_price − discount (${fixed(amount)}); send one or the other`);
      }
    } else if (item.amount !== undefined) {
      if (quantity !== null || discount !== null) throw new InvalidError(`${at}: quantity and discount need a unit_price; with an explicit amount, send neither`);
      amount = round(dec(item.amount), currency);
    } else {
      throw new InvalidError(`${at}: give an amount, or a unit_price (with quantity, 1 by default)`);
    }
    const taxes: StoredTax[] = (item.taxes ?? []).map((tax, taxIndex) => {
      const where = `${at}.taxes[${taxIndex}]`;
      let taxAmount: Dec;
      if (tax.amount !== undefined) taxAmount = round(dec(tax.amount), currency);
      else if (tax.rate !== undefined) taxAmount = round(amount.times(dec(tax.rate)).dividedBy(100), currency);
      else throw new InvalidError(`${where}: give a rate or an amount`);
      return { name: tax.name ?? (tax.rate !== undefined ? `Tax ${fixed(dec(tax.rate), Math.max(0, dec(tax.rate).decimalPlaces()))}%` : 'Tax'), rate: tax.rate === undefined ? null : dec(tax.rate).toString(), amount: fixed(taxAmount, 2), reverse_charge: tax.reverse_charge ?? false };
    });
    return {
      description: item.description ?? '',
      quantity: quantity === null ? null : quantity.toString(),
      unit_price: unitPrice === null ? null : unitPrice.toString(),
      discount: discount === null ? null : discount.toString(),
      amount: fixed(amount, 2),
      account_code: item.account_code ?? '',
      product_mrn: item.product_mrn ?? null,
      taxes,
    };
  });
  const subtotal = sum(items.map((item) => dec(item.amount)));
  const taxTotal = sum(items.flatMap((item) => item.taxes.filter((tax) => !tax.reverse_charge).map((tax) => dec(tax.amount))));
  const adjustments: StoredAdjustment[] = input.adjustments.map((adjustment, index) => {
    const at = `adjustments[${index}]`;
    if (!adjustment.type) throw new InvalidError(`${at}.type: is required (discount or charge)`);
    let magnitude: Dec;
    if (adjustment.amount !== undefined) magnitude = round(dec(adjustment.amount), currency);
    else if (adjustment.value !== undefined) magnitude = round(subtotal.times(dec(adjustment.value)).dividedBy(100), currency);
    else throw new InvalidError(`${at}: give an amount, or a value (a percentage of the subtotal)`);
    return {
      label: adjustment.label ?? (adjustment.type === 'discount' ? 'Discount' : 'Charge'),
      type: adjustment.type,
      value: adjustment.value === undefined ? null : dec(adjustment.value).toString(),
      amount: fixed(adjustment.type === 'discount' ? magnitude.negated() : magnitude, 2),
      account_code: adjustment.account_code ?? '',
    };
  });
  const adjustmentTotal = sum(adjustments.map((adjustment) => dec(adjustment.amount)));
  const total = subtotal.plus(taxTotal).plus(adjustmentTotal);
  if (total.isNegative()) throw new InvalidError(`adjustments: the discounts exceed the bill (its total would be ${fixed(total)} ${currency})`);
  const baseTotal = round(total.times(dec(input.exchange_rate)), input.base_currency);
  if (total.greaterThanOrEqualTo(LIMIT) || baseTotal.greaterThanOrEqualTo(LIMIT)) throw new InvalidError(`items: the bill's total (${fixed(total)} ${currency}, ${fixed(baseTotal)} ${input.base_currency}) is more than the ledger keeps (less than 10^15)`);
  return { items, adjustments, subtotal: fixed(subtotal), tax_total: fixed(taxTotal), adjustment_total: fixed(adjustmentTotal), total: fixed(total), base_total: fixed(baseTotal) };
}

/** One line of a posting, before it is written: one side, in the bill's currency and in the base currency. */
export interface PostingLine {
  account: Account;
  side: 'debit' | 'credit';
  amount_currency: Dec;
  base: Dec;
  description: string;
}

/** The posting roles a bill's entry needs. */
export interface PostingAccounts {
  byCode(code: string): Account | undefined;
  payables: Account;
  input_tax: Account;
  output_tax: Account;
  expense: Account;
  purchase_discounts: Account;
  rounding: Account;
}

/**
 * The journal lines of an approved bill (ERPNext's purchase-invoice GL entries): debit each item's
 * account, debit input tax per charged tax line, debit input tax and credit output tax per
 * reverse-charge line, debit a charge's account or credit a discount's, and credit accounts
 * payable with the total. Each line is converted to the base currency and rounded on its own;
 * payables gets `base_total`, and any difference of rounding goes to the rounding account, so the
 * entry always balances. Lines worth zero in the base currency are left out (a
 * line is one-sided and non-zero, which the database checks too).
 */
export function postingLines(bill: { items: StoredItem[]; adjustments: StoredAdjustment[]; total: string; base_total: string; exchange_rate: string; base_currency: string }, accounts: PostingAccounts): PostingLine[] {
  const rate = dec(bill.exchange_rate);
  const toBase = (amount: Dec) => round(amount.times(rate), bill.base_currency);
  const lines: PostingLine[] = [];
  const push = (account: Account, side: 'debit' | 'credit', amount: Dec, description: string, base = toBase(amount)) => {
    if (!base.isZero()) lines.push({ account, side, amount_currency: amount, base, description });
  };
  for (const item of bill.items) {
    const account = item.account_code ? accounts.byCode(item.account_code)! : accounts.expense;
    push(account, 'debit', dec(item.amount), item.description);
    for (const tax of item.taxes) {
      push(accounts.input_tax, 'debit', dec(tax.amount), tax.reverse_charge ? `${tax.name}: input` : tax.name);
      if (tax.reverse_charge) push(accounts.output_tax, 'credit', dec(tax.amount), `${tax.name}: output (self-assessed)`);
    }
  }
  for (const adjustment of bill.adjustments) {
    const fallback = adjustment.type === 'discount' ? accounts.purchase_discounts : accounts.expense;
    const account = adjustment.account_code ? accounts.byCode(adjustment.account_code)! : fallback;
    const amount = dec(adjustment.amount);
    push(account, amount.isNegative() ? 'credit' : 'debit', amount.abs(), adjustment.label);
  }
  push(accounts.payables, 'credit', dec(bill.total), 'Accounts payable', dec(bill.base_total));
  const debits = sum(lines.filter((line) => line.side === 'debit').map((line) => line.base));
  const credits = sum(lines.filter((line) => line.side === 'credit').map((line) => line.base));
  const difference = debits.minus(credits);
  if (!difference.isZero()) {
    lines.push({ account: accounts.rounding, side: difference.isPositive() ? 'credit' : 'debit', amount_currency: new D(0), base: difference.abs(), description: 'Currency rounding' });
  }
  return lines;
}
