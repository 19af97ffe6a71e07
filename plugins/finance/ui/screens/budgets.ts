import { appLink, LitElement, css, errorText, html, kit, navigate, nothing, toast, type TableColumn } from '@wpk/ui';
import { accountLabel, allAccounts, amount, day, hint, invalid, refusalOf, type Account, type Budget, type Refusal } from '../api.js';
import { formStyles, screenStyles } from '../styles.js';

const FIELDS = ['account_id', 'period_start', 'period_end', 'amount', 'dimensions', 'notes'] as const;

/** `/budgets` and `/budgets/{id}`: the budgets per account and period (with their dimensions), a form to add one or edit the one opened. */
export class FinanceBudgets extends LitElement {
  static override properties = {
    budgetId: { attribute: 'budget-id' },
    budget: { state: true },
    accounts: { state: true },
    loaded: { state: true },
    error: { state: true },
    refusal: { state: true },
    busy: { state: true },
  };
  declare budgetId: string;
  declare budget: Budget | null;
  declare accounts: Account[];
  /** The chart is in (the table names each budget's account from it). */
  declare loaded: boolean;
  declare error: string | null;
  declare refusal: Refusal | null;
  declare busy: boolean;

  constructor() {
    super();
    this.budgetId = '';
    this.budget = null;
    this.accounts = [];
    this.loaded = false;
    this.error = null;
    this.refusal = null;
    this.busy = false;
  }

  static override styles = [
    ...screenStyles,
    formStyles,
    css`
      form { max-width: 48rem; }
      .row { gap: var(--wpk-space-3); }
      .num { white-space: nowrap; font-variant-numeric: tabular-nums; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Budgets');
    void this.loadAccounts();
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('budgetId')) void this.load();
  }

  private async loadAccounts(): Promise<void> {
    try {
      this.accounts = await allAccounts();
    } catch {
      // Without finance.accounts.read the budgets show without their accounts' names.
      this.accounts = [];
    } finally {
      this.loaded = true;
    }
  }

  private async load(): Promise<void> {
    this.refusal = null;
    this.budget = null;
    if (!this.budgetId) return;
    try {
      this.budget = (await kit().client.request<{ data: Budget }>('GET', `/finance/budgets/${encodeURIComponent(this.budgetId)}`)).data;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private account(id: string): string {
    const account = this.accounts.find((entry) => entry.id === id);
    return account ? accountLabel(account) : 'An account of the chart';
  }

  private readonly columns: TableColumn<Budget>[] = [
    { key: 'account', label: 'Account', render: (budget) => appLink(`/budgets/${budget.id}`, this.account(budget.account_id)) },
    { key: 'period', label: 'Period', render: (budget) => `${day(budget.period_start)} – ${day(budget.period_end)}` },
    { key: 'amount', label: 'Amount', render: (budget) => html`<span class="num">${amount(budget.amount)}</span>` },
    { key: 'dimensions', label: 'Dimensions', render: (budget) => Object.entries(budget.dimensions).filter(([, value]) => value).map(([key, value]) => `${key}: ${value}`).join(', ') || 'Every line' },
  ];

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const value = (name: string) => String((form.querySelector(`[name="${name}"]`) as HTMLInputElement | null)?.value ?? '').trim();
    const editing = this.budget;
    const body: Record<string, unknown> = {
      account_id: value('account_id') || undefined,
      period_start: value('period_start') || undefined,
      period_end: value('period_end') || undefined,
      amount: value('amount') === '' ? undefined : Number(value('amount')),
      dimensions: { department: value('department') || null, location: value('location') || null, project: value('project') || null },
      notes: value('notes'),
    };
    if (!editing && Object.values(body.dimensions as Record<string, unknown>).every((entry) => entry === null)) delete body.dimensions;
    this.busy = true;
    this.refusal = null;
    try {
      if (editing) {
        this.budget = (await kit().client.request<{ data: Budget }>('PATCH', `/finance/budgets/${editing.id}`, { body })).data;
        toast('Budget saved', 'success');
        await navigate('/budgets');
      } else {
        await kit().client.request<{ data: Budget }>('POST', '/finance/budgets', { body });
        toast('Budget added', 'success');
        form.reset();
        await this.renderRoot.querySelector('wpk-data-table')?.reload();
      }
    } catch (error) {
      this.busy = false; // in the refusal's render: the button is enabled again when the refusal shows
      this.refusal = refusalOf(error, FIELDS);
      await this.updateComplete;
      (this.renderRoot.querySelector<HTMLElement>(this.refusal.field ? `[name="${this.refusal.field}"]` : '#budget-error') ?? this.renderRoot.querySelector<HTMLElement>('#budget-error'))?.focus();
    } finally {
      this.busy = false;
    }
  }

  private form(budget: Budget | null) {
    const refusal = this.refusal;
    return html`<form novalidate @submit=${this.save}>
      ${refusal && !refusal.field ? html`<p id="budget-error" class="error" role="alert" tabindex="-1">${refusal.message}</p>` : nothing}
      <div class="grid">
        <div class="field">
          <label for="budget-account">Account</label>
          <select id="budget-account" name="account_id" aria-invalid=${invalid(refusal, 'account_id')} aria-describedby=${refusal?.field === 'account_id' ? 'budget-account-error' : nothing}>
            <option value="" ?selected=${!budget}>Choose an account</option>
            ${this.accounts.map((account) => html`<option value=${account.id} ?selected=${budget?.account_id === account.id}>${accountLabel(account)}</option>`)}
          </select>
          ${refusal?.field === 'account_id' ? html`<span id="budget-account-error" class="error">${refusal.message}</span>` : nothing}
        </div>
        <wa-input name="period_start" label="From" type="date" required .value=${budget?.period_start ?? ''} aria-invalid=${invalid(refusal, 'period_start')}>${hint(refusal, 'period_start')}</wa-input>
        <wa-input name="period_end" label="To" type="date" required .value=${budget?.period_end ?? ''} aria-invalid=${invalid(refusal, 'period_end')}>${hint(refusal, 'period_end')}</wa-input>
        <wa-input name="amount" label="Amount" type="number" min="0" step="0.01" inputmode="decimal" required .value=${budget?.amount ?? ''} aria-invalid=${invalid(refusal, 'amount')}>${hint(refusal, 'amount')}</wa-input>
      </div>
      <div class="grid">
        <wa-input name="department" label="Department" maxlength="200" .value=${budget?.dimensions.department ?? ''} aria-invalid=${invalid(refusal, 'dimensions')}>${hint(refusal, 'dimensions', 'Empty: every line of the account counts.')}</wa-input>
        <wa-input name="location" label="Location" maxlength="200" .value=${budget?.dimensions.location ?? ''}></wa-input>
        <wa-input name="project" label="Project" maxlength="200" .value=${budget?.dimensions.project ?? ''}></wa-input>
      </div>
      <wa-textarea name="notes" label="Notes" maxlength="2000" rows="2" .value=${budget?.notes ?? ''} aria-invalid=${invalid(refusal, 'notes')}>${hint(refusal, 'notes')}</wa-textarea>
      <div class="row">
        <wa-button type="submit" variant="brand" ?loading=${this.busy} ?disabled=${this.busy}>${budget ? 'Save budget' : 'Add budget'}</wa-button>
        ${budget ? appLink('/budgets', 'Cancel') : nothing}
      </div>
    </form>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    if (!this.loaded) return html`<wa-spinner label="Loading the budgets"></wa-spinner>`;
    if (this.budgetId) {
      if (!this.budget) return html`<wa-spinner label="Loading the budget"></wa-spinner>`;
      return html`<p>${appLink('/budgets', '← All budgets')}</p>
        <h1>Budget of ${this.account(this.budget.account_id)}</h1>
        ${this.form(this.budget)}`;
    }
    return html`<h1>Budgets</h1>
      <wpk-data-table caption="Budgets by period; open one to edit it" .source=${'/finance/budgets'} .columns=${this.columns} empty="No budget yet."></wpk-data-table>
      <h2>Add a budget</h2>
      ${this.form(null)}
      <p class="muted">${appLink('/reports/budget-vs-actual', 'Budget vs actual')} compares each budget with what was posted.</p>`;
  }
}

customElements.define('finance-budgets', FinanceBudgets);
