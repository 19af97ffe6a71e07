import { appLink, LitElement, confirmAction, css, errorText, html, kit, navigate, nothing, toast, type Collection } from '@wpk/ui';
import {
  CURRENCIES,
  STATUS_LABELS,
  accountLabel,
  allAccounts,
  day,
  hint,
  invalid,
  money,
  refusalOf,
  today,
  type Account,
  type Bill,
  type BillItem,
  type BillStatus,
  type JournalEntry,
  type Refusal,
} from '../api.js';
import { billTotals, lineAmount, toMicros, type Totals, type TotalsAdjustment } from '../money.js';
import { billName } from './bills.js';
import { formStyles, screenStyles, tableStyles } from '../styles.js';

/** One tax line as the editor holds it (text as typed). `amount` is kept for a tax given by amount, not by rate. */
interface TaxDraft {
  name: string;
  rate: string;
  reverse_charge: boolean;
  amount: string | null;
}

/**
 * One line item as the editor holds it: an amount typed, or (a unit price given) quantity × unit
 * price − discount, the amount then computed as the server computes it. `original` is the item as
 * loaded (its product is kept).
 */
interface ItemDraft {
  description: string;
  account_code: string;
  quantity: string;
  unit_price: string;
  discount: string;
  amount: string;
  taxes: TaxDraft[];
  original: BillItem | null;
}

/** One adjustment of the bill as the editor holds it: a percentage of the subtotal (`value`) or an amount, both unsigned (the type gives the sign). */
interface AdjustmentDraft {
  label: string;
  type: 'discount' | 'charge';
  value: string;
  amount: string;
  /** The account it posts to, kept as loaded (empty: purchase discounts, or general expenses for a charge). */
  account_code: string;
}

interface BillDraft {
  date: string;
  due_date: string;
  currency: string;
  exchange_rate: string;
  company_mrn: string;
  memo: string;
  department: string;
  location: string;
  project: string;
  /** Comma-separated, as typed. */
  tags: string;
  items: ItemDraft[];
  adjustments: AdjustmentDraft[];
}

/** The state moves a bill in `status` offers, as the API's state machine has them (docs/apps/finance.md, "States"). */
const MOVES: Record<BillStatus, Array<{ to: 'received' | 'approved' | 'void'; label: string }>> = {
  draft: [
    { to: 'received', label: 'Mark received' },
    { to: 'approved', label: 'Approve' },
    { to: 'void', label: 'Void' },
  ],
  received: [
    { to: 'approved', label: 'Approve' },
    { to: 'void', label: 'Void' },
  ],
  approved: [{ to: 'void', label: 'Void' }],
  void: [],
};

const DONE: Record<'received' | 'approved' | 'void', string> = { received: 'Bill marked received', approved: 'Bill approved and posted to the ledger', void: 'Bill voided' };

const emptyTax = (): TaxDraft => ({ name: '', rate: '', reverse_charge: false, amount: null });
const emptyItem = (): ItemDraft => ({ description: '', account_code: '', quantity: '', unit_price: '', discount: '', amount: '', taxes: [], original: null });
const emptyAdjustment = (): AdjustmentDraft => ({ label: '', type: 'discount', value: '', amount: '', account_code: '' });

/** The tags typed in the field: trimmed, empty ones and repeats dropped. */
const tagsOf = (text: string): string[] => [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))];

/** A line's amount as the editor shows it: computed from the unit price when one is given, else as typed. */
const shownAmount = (currency: string, item: ItemDraft): string => (item.unit_price.trim() === '' ? item.amount : (lineAmount(currency, item) ?? ''));

/** The adjustments as the running totals read them (the amount signed by its type). */
const totalsAdjustments = (adjustments: AdjustmentDraft[]): TotalsAdjustment[] =>
  adjustments.map((adjustment) => ({
    type: adjustment.type,
    value: adjustment.value.trim() === '' ? null : adjustment.value,
    amount: adjustment.type === 'discount' && adjustment.amount.trim() !== '' ? `-${adjustment.amount.trim()}` : adjustment.amount,
  }));

function draftOf(bill: Bill): BillDraft {
  return {
    date: bill.date,
    due_date: bill.due_date ?? '',
    currency: bill.currency,
    exchange_rate: bill.currency === bill.base_currency ? '' : bill.exchange_rate,
    company_mrn: bill.company_mrn ?? '',
    memo: bill.memo,
    department: bill.dimensions.department ?? '',
    location: bill.dimensions.location ?? '',
    project: bill.dimensions.project ?? '',
    tags: bill.tags.join(', '),
    items: bill.items.map((item) => ({
      description: item.description,
      account_code: item.account_code,
      quantity: item.unit_price === null ? '' : (item.quantity ?? ''),
      unit_price: item.unit_price ?? '',
      discount: item.unit_price === null ? '' : (item.discount ?? ''),
      amount: item.amount,
      taxes: item.taxes.map((tax) => ({ name: tax.name, rate: tax.rate ?? '', reverse_charge: tax.reverse_charge, amount: tax.rate === null ? tax.amount : null })),
      original: item,
    })),
    adjustments: bill.adjustments.map((adjustment) => ({
      label: adjustment.label,
      type: adjustment.type,
      value: adjustment.value ?? '',
      amount: adjustment.value === null ? adjustment.amount.replace(/^-/, '') : '',
      account_code: adjustment.account_code,
    })),
  };
}

const number = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** The request body of the editor: all of it for a new bill; for a draft's `PUT`, emptied fields cleared. */
function requestBody(draft: BillDraft, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { date: draft.date, currency: draft.currency };
  const optional = (name: string, value: string) => {
    if (value.trim()) body[name] = value.trim();
    else if (!creating) body[name] = null;
  };
  optional('due_date', draft.due_date);
  optional('company_mrn', draft.company_mrn);
  if (draft.exchange_rate.trim()) body.exchange_rate = number(draft.exchange_rate);
  if (draft.memo || !creating) body.memo = draft.memo;
  const dimensions = { department: draft.department.trim(), location: draft.location.trim(), project: draft.project.trim() };
  if (!creating || Object.values(dimensions).some(Boolean)) body.dimensions = dimensions;
  body.items = draft.items.map((item) => {
    const out: Record<string, unknown> = {};
    if (item.description) out.description = item.description;
    if (item.account_code) out.account_code = item.account_code;
    const original = item.original;
    if (item.unit_price.trim() !== '') {
      // Priced: the server computes the amount (quantity 1 when empty).
      if (item.quantity.trim() !== '') out.quantity = number(item.quantity);
      out.unit_price = number(item.unit_price);
      if (item.discount.trim() !== '') out.discount = number(item.discount);
    } else {
      if (item.amount.trim() !== '') out.amount = number(item.amount);
      // Without a unit price the server takes neither: sent anyway, its refusal names the line.
      if (item.quantity.trim() !== '') out.quantity = number(item.quantity);
      if (item.discount.trim() !== '') out.discount = number(item.discount);
    }
    if (original?.product_mrn) out.product_mrn = original.product_mrn;
    out.taxes = item.taxes.map((tax) => {
      const line: Record<string, unknown> = { reverse_charge: tax.reverse_charge };
      if (tax.name.trim()) line.name = tax.name.trim();
      if (tax.rate.trim() !== '') line.rate = number(tax.rate);
      else if (tax.amount !== null) line.amount = Number(tax.amount);
      return line;
    });
    return out;
  });
  const tags = tagsOf(draft.tags);
  if (tags.length || !creating) body.tags = tags;
  if (draft.adjustments.length || !creating) {
    body.adjustments = draft.adjustments.map((adjustment) => {
      const out: Record<string, unknown> = { type: adjustment.type };
      if (adjustment.label.trim()) out.label = adjustment.label.trim();
      if (adjustment.value.trim() !== '') out.value = number(adjustment.value);
      else if (adjustment.amount.trim() !== '') out.amount = number(adjustment.amount);
      if (adjustment.account_code) out.account_code = adjustment.account_code;
      return out;
    });
  }
  return body;
}

/** `/bills/new` and `/bills/{id}`: a bill's editor while it is a draft (line items, taxes, running totals), its state moves, and what it posted. */
export class FinanceBill extends LitElement {
  static override properties = {
    billId: { attribute: 'bill-id' },
    bill: { state: true },
    draft: { state: true },
    accounts: { state: true },
    entries: { state: true },
    error: { state: true },
    refusal: { state: true },
    busy: { state: true },
  };
  declare billId: string;
  declare bill: Bill | null;
  declare draft: BillDraft | null;
  declare accounts: Account[];
  declare entries: JournalEntry[];
  declare error: string | null;
  declare refusal: Refusal | null;
  declare busy: boolean;

  constructor() {
    super();
    this.billId = '';
    this.bill = null;
    this.draft = null;
    this.accounts = [];
    this.entries = [];
    this.error = null;
    this.refusal = null;
    this.busy = false;
  }

  static override styles = [
    ...screenStyles,
    formStyles,
    tableStyles,
    css`
      h1 { margin-bottom: var(--wpk-space-2); overflow-wrap: anywhere; }
      .state { margin: 0 0 var(--wpk-space-3); }
      fieldset { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); margin: 0; display: grid; gap: var(--wpk-space-3); min-width: 0; }
      legend { font-weight: var(--wpk-font-weight-bold); padding: 0 var(--wpk-space-1); }
      .tax { display: grid; gap: var(--wpk-space-2) var(--wpk-space-3); grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); align-items: end; padding-left: var(--wpk-space-3); border-left: 3px solid var(--wpk-color-border); }
      .tax > * { min-width: 0; }
      dl.totals { display: grid; grid-template-columns: max-content max-content; gap: var(--wpk-space-1) var(--wpk-space-4); margin: 0; justify-content: end; }
      dl.totals dt { color: var(--wpk-color-text-muted); }
      dl.totals dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
      dl.totals .grand { font-weight: var(--wpk-font-weight-bold); color: var(--wpk-color-text); }
      dl.facts { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: var(--wpk-space-2) var(--wpk-space-4); margin: 0 0 var(--wpk-space-4); }
      dl.facts dt { color: var(--wpk-color-text-muted); }
      dl.facts dd { margin: 0; overflow-wrap: anywhere; }
      ul.tags { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); list-style: none; margin: 0; padding: 0; }
      .moves { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin: var(--wpk-space-3) 0; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadAccounts();
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    // A new bill, or another bill on the same element (after a create, or a link from bill to bill).
    if (changed.has('billId')) void this.load();
  }

  private async loadAccounts(): Promise<void> {
    try {
      this.accounts = (await allAccounts()).filter((account) => account.type === 'expense' || account.type === 'asset');
    } catch {
      // Without finance.accounts.read the chart cannot be listed: a line keeps its account, a new one goes to general expenses.
      this.accounts = [];
    }
  }

  private async load(): Promise<void> {
    this.refusal = null;
    this.error = null;
    if (!this.billId) {
      this.bill = null;
      this.entries = [];
      void kit().bridge.title('New bill');
      // A new bill starts in the ledger's currency: the latest bill's base currency (USD on a new ledger).
      let currency = 'USD';
      try {
        const latest = await kit().client.request<Collection<Bill>>('GET', '/finance/bills?per_page=1');
        currency = latest.data[0]?.base_currency ?? currency;
      } catch {
        // No bill to read (or no right to): the default stands.
      }
      this.draft = { date: today(), due_date: '', currency, exchange_rate: '', company_mrn: '', memo: '', department: '', location: '', project: '', tags: '', items: [emptyItem()], adjustments: [] };
      return;
    }
    try {
      const bill = (await kit().client.request<{ data: Bill }>('GET', `/finance/bills/${encodeURIComponent(this.billId)}`)).data;
      this.show(bill);
      void kit().bridge.title(billName(bill));
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private show(bill: Bill): void {
    this.bill = bill;
    this.draft = bill.status === 'draft' ? draftOf(bill) : null;
    this.entries = [];
    if (bill.journal_entry_id) void this.loadEntries(bill.id);
  }

  private async loadEntries(billId: string): Promise<void> {
    try {
      this.entries = (await kit().client.request<Collection<JournalEntry>>('GET', `/finance/journal-entries?${new URLSearchParams({ bill_id: billId, per_page: '100' })}`)).data;
    } catch {
      // A member without finance.entries.read sees the bill without its entries.
      this.entries = [];
    }
  }

  /** Changes the draft (a copy, so Lit sees the change and the totals follow). */
  private edit(change: (draft: BillDraft) => void): void {
    const draft = structuredClone(this.draft!);
    change(draft);
    this.draft = draft;
  }

  private input(apply: (draft: BillDraft, value: string) => void) {
    return (event: Event) => this.edit((draft) => apply(draft, String((event.target as HTMLInputElement).value ?? '')));
  }

  private fields(): string[] {
    const fields = ['date', 'due_date', 'currency', 'exchange_rate', 'company_mrn', 'memo', 'dimensions', 'tags', 'items', 'adjustments'];
    this.draft?.items.forEach((item, index) => {
      fields.push(...['', '.description', '.account_code', '.quantity', '.unit_price', '.discount', '.amount', '.taxes'].map((name) => `items.${index}${name}`));
      item.taxes.forEach((_, tax) => fields.push(`items.${index}.taxes.${tax}`, `items.${index}.taxes.${tax}.name`, `items.${index}.taxes.${tax}.rate`));
    });
    this.draft?.adjustments.forEach((_, index) => fields.push(...['', '.label', '.type', '.value', '.amount'].map((name) => `adjustments.${index}${name}`)));
    return fields;
  }

  private async focusRefusal(): Promise<void> {
    await this.updateComplete;
    const field = this.refusal?.field;
    const target = field ? this.renderRoot.querySelector<HTMLElement>(`[name="${field}"]`) ?? this.renderRoot.querySelector<HTMLElement>(`[data-field="${field}"]`) : null;
    (target ?? this.renderRoot.querySelector<HTMLElement>('#bill-error'))?.focus();
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const creating = !this.bill;
    this.busy = true;
    this.refusal = null;
    try {
      const body = requestBody(this.draft!, creating);
      const { client } = kit();
      const saved = creating
        ? (await client.request<{ data: Bill }>('POST', '/finance/bills', { body })).data
        : (await client.request<{ data: Bill }>('PUT', `/finance/bills/${this.bill!.id}`, { body })).data;
      toast(creating ? 'Draft bill recorded' : 'Draft saved', 'success');
      if (creating) await navigate(`/bills/${saved.id}`, { replace: true });
      else this.show(saved);
    } catch (error) {
      this.busy = false; // in the refusal's render: the button is enabled again when the refusal shows
      this.refusal = refusalOf(error, this.fields());
      await this.focusRefusal();
    } finally {
      this.busy = false;
    }
  }

  private async move(to: 'received' | 'approved' | 'void'): Promise<void> {
    const bill = this.bill!;
    if (to === 'void') {
      const posted = bill.status === 'approved';
      const sure = await confirmAction({
        title: 'Void this bill?',
        message: posted ? 'A void is final: the bill stays in the books, and a reversing entry cancels what its approval posted.' : 'A void is final: the bill can no longer be received, approved or edited.',
        confirm_label: 'Void bill',
        danger: true,
      });
      if (!sure) return;
    }
    this.busy = true;
    this.refusal = null;
    try {
      if (bill.status === 'draft' && this.draft && JSON.stringify(requestBody(this.draft, false)) !== JSON.stringify(requestBody(draftOf(bill), false))) {
        // The editor holds changes: they are saved first, so the move takes the bill as the person sees it.
        await kit().client.request('PUT', `/finance/bills/${bill.id}`, { body: requestBody(this.draft, false) });
      }
      const moved = (await kit().client.request<{ data: Bill }>('PATCH', `/finance/bills/${bill.id}`, { body: { status: to } })).data;
      toast(DONE[to], 'success');
      this.show(moved);
    } catch (error) {
      this.busy = false; // in the refusal's render: the button is enabled again when the refusal shows
      this.refusal = refusalOf(error, this.draft ? this.fields() : []);
      await this.focusRefusal();
    } finally {
      this.busy = false;
    }
  }

  private accountOptions(selected: string) {
    const known = this.accounts.some((account) => account.code === selected);
    return html`<option value="" ?selected=${selected === ''}>General expenses (default)</option>
      ${!known && selected ? html`<option value=${selected} selected>${selected}</option>` : nothing}
      ${this.accounts.map((account) => html`<option value=${account.code} ?selected=${account.code === selected}>${accountLabel(account)}</option>`)}`;
  }

  /** A decimal field of the editor (a number keyboard on a phone), the refusal that names it under it. */
  private decimalInput(name: string, label: string, value: string, apply: (draft: BillDraft, value: string) => void, help?: string) {
    const refusal = this.refusal;
    return html`<wa-input name=${name} label=${label} type="number" min="0" step="any" inputmode="decimal" .value=${value} aria-invalid=${invalid(refusal, name)} @input=${this.input(apply)}>${hint(refusal, name, help)}</wa-input>`;
  }

  private adjustmentEditor(adjustment: AdjustmentDraft, index: number) {
    const field = (name: string) => `adjustments.${index}.${name}`;
    const refusal = this.refusal;
    const currency = this.draft!.currency;
    return html`<fieldset>
      <legend>Adjustment ${index + 1}</legend>
      ${refusal?.field === `adjustments.${index}` ? html`<p class="error" role="alert" tabindex="-1" data-field=${refusal.field}>${refusal.message}</p>` : nothing}
      <div class="grid">
        <wa-input name=${field('label')} label="Label" maxlength="200" .value=${adjustment.label} aria-invalid=${invalid(refusal, field('label'))}
          @input=${this.input((draft, value) => (draft.adjustments[index]!.label = value))}>${hint(refusal, field('label'), 'Default: Discount or Charge.')}</wa-input>
        <div class="field">
          <label for=${`adjustment-type-${index}`}>Type</label>
          <select id=${`adjustment-type-${index}`} name=${field('type')} @change=${this.input((draft, value) => (draft.adjustments[index]!.type = value === 'charge' ? 'charge' : 'discount'))}>
            <option value="discount" ?selected=${adjustment.type === 'discount'}>Discount (lowers the total)</option>
            <option value="charge" ?selected=${adjustment.type === 'charge'}>Charge (raises the total)</option>
          </select>
        </div>
        ${this.decimalInput(field('value'), 'Percent of the subtotal', adjustment.value, (draft, value) => (draft.adjustments[index]!.value = value), 'Or an amount:')}
        ${this.decimalInput(field('amount'), `Amount (${currency})`, adjustment.amount, (draft, value) => (draft.adjustments[index]!.amount = value), 'Used when no percent is given.')}
      </div>
      <div class="row"><wa-button size="small" appearance="outlined" variant="danger" @click=${() => this.edit((draft) => draft.adjustments.splice(index, 1))}>Remove adjustment ${index + 1}</wa-button></div>
    </fieldset>`;
  }

  private itemEditor(item: ItemDraft, index: number, count: number) {
    const field = (name: string) => `items.${index}.${name}`;
    const refusal = this.refusal;
    const lineError = refusal?.field === `items.${index}` || refusal?.field === field('taxes');
    const currency = this.draft!.currency;
    const priced = item.unit_price.trim() !== '';
    return html`<fieldset>
      <legend>Line ${index + 1}</legend>
      ${lineError ? html`<p class="error" role="alert" tabindex="-1" data-field=${refusal!.field!}>${refusal!.message}</p>` : nothing}
      <div class="grid">
        <wa-input name=${field('description')} label="Description" maxlength="1000" .value=${item.description} aria-invalid=${invalid(refusal, field('description'))}
          @input=${this.input((draft, value) => (draft.items[index]!.description = value))}>${hint(refusal, field('description'))}</wa-input>
        <div class="field">
          <label for=${`account-${index}`}>Account</label>
          <select id=${`account-${index}`} name=${field('account_code')} aria-invalid=${invalid(refusal, field('account_code'))} aria-describedby=${refusal?.field === field('account_code') ? `account-${index}-error` : nothing}
            @change=${this.input((draft, value) => (draft.items[index]!.account_code = value))}>
            ${this.accountOptions(item.account_code)}
          </select>
          ${refusal?.field === field('account_code') ? html`<span id=${`account-${index}-error`} class="error">${refusal.message}</span>` : nothing}
        </div>
      </div>
      <div class="grid">
        ${this.decimalInput(field('quantity'), 'Quantity', item.quantity, (draft, value) => (draft.items[index]!.quantity = value), 'With a unit price; 1 when empty.')}
        ${this.decimalInput(field('unit_price'), `Unit price (${currency})`, item.unit_price, (draft, value) => (draft.items[index]!.unit_price = value))}
        ${this.decimalInput(field('discount'), `Discount (${currency})`, item.discount, (draft, value) => (draft.items[index]!.discount = value), 'An amount off the line.')}
        ${priced
          ? html`<wa-input name=${field('amount')} label=${`Amount (${currency})`} readonly .value=${shownAmount(currency, item)} aria-invalid=${invalid(refusal, field('amount'))}>${hint(refusal, field('amount'), 'Quantity × unit price − discount.')}</wa-input>`
          : this.decimalInput(field('amount'), `Amount (${currency})`, item.amount, (draft, value) => (draft.items[index]!.amount = value))}
      </div>
      ${item.taxes.map(
        (tax, taxIndex) => html`<div class="tax" role="group" aria-label=${`Tax ${taxIndex + 1} of line ${index + 1}`}>
          <wa-input name=${field(`taxes.${taxIndex}.name`)} label="Tax name" maxlength="100" .value=${tax.name} aria-invalid=${invalid(refusal, field(`taxes.${taxIndex}.name`))}
            @input=${this.input((draft, value) => (draft.items[index]!.taxes[taxIndex]!.name = value))}>${hint(refusal, field(`taxes.${taxIndex}.name`))}</wa-input>
          <wa-input name=${field(`taxes.${taxIndex}.rate`)} label="Rate (%)" type="number" min="0" max="100" step="any" inputmode="decimal" .value=${tax.rate} aria-invalid=${invalid(refusal, field(`taxes.${taxIndex}.rate`))}
            @input=${this.input((draft, value) => (draft.items[index]!.taxes[taxIndex]!.rate = value))}>${hint(refusal, field(`taxes.${taxIndex}.rate`), tax.amount !== null && tax.rate === '' ? `Given as an amount: ${tax.amount}` : undefined)}</wa-input>
          <wa-checkbox ?checked=${tax.reverse_charge} @change=${(event: Event) => this.edit((draft) => (draft.items[index]!.taxes[taxIndex]!.reverse_charge = (event.target as HTMLInputElement).checked))}>Reverse charge</wa-checkbox>
          <div><wa-button size="small" appearance="outlined" @click=${() => this.edit((draft) => draft.items[index]!.taxes.splice(taxIndex, 1))}>Remove tax<span class="wpk-visually-hidden"> ${taxIndex + 1} of line ${index + 1}</span></wa-button></div>
        </div>`,
      )}
      <div class="row">
        ${item.taxes.length < 10 ? html`<wa-button size="small" appearance="outlined" @click=${() => this.edit((draft) => draft.items[index]!.taxes.push(emptyTax()))}>Add a tax to line ${index + 1}</wa-button>` : nothing}
        ${count > 1 ? html`<wa-button size="small" appearance="outlined" variant="danger" @click=${() => this.edit((draft) => draft.items.splice(index, 1))}>Remove line ${index + 1}</wa-button>` : nothing}
      </div>
    </fieldset>`;
  }

  private totals(values: Totals | null, currency: string, label: string) {
    if (!values) return html`<p class="muted" role="status">The totals show once every amount is a number.</p>`;
    return html`<dl class="totals" aria-label=${label}>
      <dt>Subtotal</dt><dd>${money(values.subtotal, currency)}</dd>
      <dt>Tax</dt><dd>${money(values.tax, currency)}</dd>
      ${toMicros(values.adjustments) !== 0n ? html`<dt>Adjustments</dt><dd>${money(values.adjustments, currency)}</dd>` : nothing}
      <dt class="grand">Total</dt><dd class="grand">${money(values.total, currency)}</dd>
    </dl>`;
  }

  private editor() {
    const draft = this.draft!;
    const refusal = this.refusal;
    const text = (name: keyof BillDraft) => this.input((next, value) => ((next[name] as string) = value));
    return html`<form novalidate @submit=${this.save}>
      ${refusal && !refusal.field ? html`<p id="bill-error" class="error" role="alert" tabindex="-1">${refusal.message}</p>` : nothing}
      <div class="grid">
        <wa-input name="date" label="Bill date" type="date" required .value=${draft.date} aria-invalid=${invalid(refusal, 'date')} @input=${text('date')}>${hint(refusal, 'date')}</wa-input>
        <wa-input name="due_date" label="Due date" type="date" .value=${draft.due_date} aria-invalid=${invalid(refusal, 'due_date')} @input=${text('due_date')}>${hint(refusal, 'due_date')}</wa-input>
        <div class="field">
          <label for="currency">Currency</label>
          <select id="currency" name="currency" @change=${text('currency')}>
            ${CURRENCIES.map((code) => html`<option value=${code} ?selected=${code === draft.currency}>${code}</option>`)}
          </select>
          ${refusal?.field === 'currency' ? html`<span class="error">${refusal.message}</span>` : nothing}
        </div>
        <wa-input name="exchange_rate" label="Exchange rate" type="number" min="0" step="any" inputmode="decimal" .value=${draft.exchange_rate} aria-invalid=${invalid(refusal, 'exchange_rate')} @input=${text('exchange_rate')}>${hint(refusal, 'exchange_rate', 'To the ledger’s currency; leave empty for a bill in it.')}</wa-input>
      </div>
      <div class="grid">
        <wa-input name="company_mrn" label="Supplier (company MRN)" maxlength="300" .value=${draft.company_mrn} aria-invalid=${invalid(refusal, 'company_mrn')} @input=${text('company_mrn')}>${hint(refusal, 'company_mrn', 'mrn:companies:company:…, for the aging report per supplier.')}</wa-input>
        <wa-input name="department" label="Department" maxlength="200" .value=${draft.department} aria-invalid=${invalid(refusal, 'dimensions')} @input=${text('department')}>${hint(refusal, 'dimensions')}</wa-input>
        <wa-input name="location" label="Location" maxlength="200" .value=${draft.location} @input=${text('location')}></wa-input>
        <wa-input name="project" label="Project" maxlength="200" .value=${draft.project} @input=${text('project')}></wa-input>
        <wa-input name="tags" label="Tags" maxlength="2600" .value=${draft.tags} aria-invalid=${invalid(refusal, 'tags')} @input=${text('tags')}>${hint(refusal, 'tags', 'Comma-separated; the bills list filters by one.')}</wa-input>
      </div>
      <h2>Line items</h2>
      ${refusal?.field === 'items' ? html`<p class="error" role="alert" tabindex="-1" data-field="items">${refusal.message}</p>` : nothing}
      ${draft.items.map((item, index) => this.itemEditor(item, index, draft.items.length))}
      <div class="row">${draft.items.length < 200 ? html`<wa-button appearance="outlined" @click=${() => this.edit((next) => next.items.push(emptyItem()))}>Add a line</wa-button>` : nothing}</div>
      <h2>Adjustments</h2>
      ${refusal?.field === 'adjustments' ? html`<p class="error" role="alert" tabindex="-1" data-field="adjustments">${refusal.message}</p>` : nothing}
      ${draft.adjustments.length === 0 ? html`<p class="muted">A discount or a charge on the whole bill (early-payment discount, shipping).</p>` : nothing}
      ${draft.adjustments.map((adjustment, index) => this.adjustmentEditor(adjustment, index))}
      <div class="row">${draft.adjustments.length < 20 ? html`<wa-button appearance="outlined" @click=${() => this.edit((next) => next.adjustments.push(emptyAdjustment()))}>Add an adjustment</wa-button>` : nothing}</div>
      ${this.totals(billTotals(draft.currency, draft.items, totalsAdjustments(draft.adjustments)), draft.currency, 'Totals')}
      <wa-textarea name="memo" label="Memo" maxlength="5000" rows="2" .value=${draft.memo} aria-invalid=${invalid(refusal, 'memo')} @input=${text('memo')}>${hint(refusal, 'memo')}</wa-textarea>
      <div><wa-button type="submit" variant="brand" ?loading=${this.busy} ?disabled=${this.busy}>${this.bill ? 'Save draft' : 'Record draft bill'}</wa-button></div>
    </form>`;
  }

  private view(bill: Bill) {
    return html`<dl class="facts">
        <dt>Bill date</dt><dd>${day(bill.date)}</dd>
        <dt>Due</dt><dd>${bill.due_date ? day(bill.due_date) : 'No due date'}</dd>
        <dt>Supplier</dt><dd>${bill.company_mrn ? html`<wpk-mrn-chip mrn=${bill.company_mrn}></wpk-mrn-chip>` : 'None given'}</dd>
        ${bill.currency !== bill.base_currency ? html`<dt>Exchange rate</dt><dd>${bill.exchange_rate} ${bill.base_currency} per ${bill.currency}</dd>` : nothing}
        ${bill.memo ? html`<dt>Memo</dt><dd>${bill.memo}</dd>` : nothing}
        ${bill.tags.length ? html`<dt>Tags</dt><dd><ul class="tags">${bill.tags.map((tag) => html`<li>${appLink(`/?${new URLSearchParams({ tag })}`, tag)}</li>`)}</ul></dd>` : nothing}
      </dl>
      <div class="wrap" tabindex="0" role="region" aria-label="Line items">
        <table>
          <caption>Line items</caption>
          <thead><tr><th scope="col">Description</th><th scope="col">Account</th><th scope="col">Taxes</th><th scope="col" class="num">Amount</th></tr></thead>
          <tbody>
            ${bill.items.map(
              (item) => html`<tr>
                <td>${item.description}${item.unit_price !== null ? html`<br /><span class="muted">${item.quantity ?? '1'} × ${money(item.unit_price, bill.currency)}${item.discount !== null && Number(item.discount) ? ` − ${money(item.discount, bill.currency)}` : ''}</span>` : nothing}</td>
                <td>${item.account_code}</td>
                <td>${item.taxes.map((tax, index) => html`${index ? html`<br />` : nothing}${tax.name}: ${money(tax.amount, bill.currency)}${tax.reverse_charge ? ' (reverse charge)' : ''}`)}</td>
                <td class="num">${money(item.amount, bill.currency)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${bill.adjustments.length
        ? html`<div class="wrap" tabindex="0" role="region" aria-label="Adjustments">
            <table>
              <caption>Adjustments</caption>
              <thead><tr><th scope="col">Label</th><th scope="col">Type</th><th scope="col" class="num">Amount</th></tr></thead>
              <tbody>
                ${bill.adjustments.map(
                  (adjustment) => html`<tr>
                    <td>${adjustment.label}${adjustment.value !== null ? ` (${adjustment.value} %)` : ''}</td>
                    <td>${adjustment.type === 'discount' ? 'Discount' : 'Charge'}</td>
                    <td class="num">${money(adjustment.amount, bill.currency)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : nothing}
      ${this.totals({ subtotal: bill.subtotal, tax: bill.tax_total, adjustments: bill.adjustment_total, total: bill.total }, bill.currency, 'Totals')}
      ${bill.currency !== bill.base_currency ? html`<p class="muted">In ${bill.base_currency}: ${money(bill.base_total, bill.base_currency)}</p>` : nothing}`;
  }

  private journal() {
    if (this.entries.length === 0) return nothing;
    return html`<h2>Posted to the ledger</h2>
      ${this.entries.map(
        (entry) => html`<div class="wrap" tabindex="0" role="region" aria-label="Journal entry">
          <table>
            <caption>${entry.kind === 'reversal' ? 'Reversal' : 'Approval'} entry of ${day(entry.date)}</caption>
            <thead><tr><th scope="col">Account</th><th scope="col">Description</th><th scope="col" class="num">Debit</th><th scope="col" class="num">Credit</th></tr></thead>
            <tbody>
              ${entry.lines.map(
                (line) => html`<tr>
                  <td>${line.account_code}</td>
                  <td>${line.description}</td>
                  <td class="num">${Number(line.debit) ? money(line.debit, entry.currency) : ''}</td>
                  <td class="num">${Number(line.credit) ? money(line.credit, entry.currency) : ''}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>`,
      )}`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/', 'Back to bills')}</p>`;
    const bill = this.bill;
    if (!this.draft && !bill) return html`<wa-spinner label="Loading the bill"></wa-spinner>`;
    const moves = bill ? MOVES[bill.status] : [];
    return html`<p class="back">${appLink('/', '← All bills')}</p>
      <h1>${bill ? billName(bill) : 'New bill'}</h1>
      ${bill ? html`<p class="state">State: <strong>${STATUS_LABELS[bill.status]}</strong>${bill.status === 'draft' ? ' — only a draft can be edited.' : ''}</p>` : nothing}
      ${bill && moves.length
        ? html`<div class="moves" role="group" aria-label="Move the bill">
            ${moves.map((move) => html`<wa-button variant=${move.to === 'void' ? 'danger' : move.to === 'approved' ? 'success' : 'neutral'} appearance=${move.to === 'void' ? 'outlined' : 'accent'} ?disabled=${this.busy} @click=${() => this.move(move.to)}>${move.label}</wa-button>`)}
          </div>`
        : nothing}
      ${this.refusal && !this.refusal.field && !this.draft ? html`<p id="bill-error" class="error" role="alert" tabindex="-1">${this.refusal.message}</p>` : nothing}
      ${this.draft ? this.editor() : this.view(bill!)}
      ${this.journal()}`;
  }
}

customElements.define('finance-bill', FinanceBill);
