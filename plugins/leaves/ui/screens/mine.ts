import { LitElement, choiceField, errorText, filledValues, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { CARD_STYLES, HALF_LABELS, STATUS_LABELS, amountText, leaveTypes, myBalances, spanText, type Balance, type LeaveRequest, type LeaveType } from '../api.js';

/** `/`: the member's balances, the form to ask for time off, and their requests (a pending one can be withdrawn). */
export class LeavesMine extends LitElement {
  static override properties = { balances: { state: true }, types: { state: true }, requests: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare balances: Balance[];
  declare types: LeaveType[];
  declare requests: LeaveRequest[];
  declare error: string | null;

  constructor() {
    super();
    this.balances = [];
    this.types = [];
    this.requests = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('My time off');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      [this.balances, this.types] = await Promise.all([myBalances(), leaveTypes()]);
      const me = this.balances[0]?.worker_id;
      this.requests = me ? ((await kit().client.leaves.getLeavesRequests({ query: { worker_id: me, per_page: 50 } })).data as LeaveRequest[]) : [];
      if (!me) this.error = 'You are not linked to a worker in Workers yet: ask HR.';
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private schema(): FormSchema {
    return {
      required: ['type_id', 'from_date'],
      properties: {
        type_id: choiceField('Leave type', this.types),
        from_date: { type: 'string', title: 'First day', format: 'date' },
        from_half: { type: 'string', title: 'Starting', enum: ['am', 'pm'], 'x-labels': HALF_LABELS },
        to_date: { type: 'string', title: 'Last day', format: 'date', description: 'Empty: the first day only.' },
        to_half: { type: 'string', title: 'Ending', enum: ['am', 'pm'], 'x-labels': { am: 'Morning', pm: 'Evening' } },
        note: { type: 'string', title: 'Note', maxLength: 1000 },
      },
    };
  }

  private ask(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(
      event,
      async (values) => {
        const made = (await kit().client.leaves.postLeavesRequests({ body: filledValues(values) as never })).data as LeaveRequest;
        toast(`Asked: ${amountText(made.duration, this.types.find((type) => type.id === made.type_id)?.unit ?? 'day')} of ${made.type_name}`, 'success');
      },
      () => this.load(),
    );
  }

  private async withdraw(request: LeaveRequest): Promise<void> {
    try {
      await kit().client.leaves.patchLeavesRequestsByRequestId({ params: { request_id: request.id }, body: { status: 'withdrawn' } });
      toast('Request withdrawn', 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    return html`<h1>My time off</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <table aria-label="My balances">
        <thead><tr><th scope="col">Leave type</th><th scope="col">Balance</th><th scope="col">Waiting for approval</th><th scope="col">Available</th></tr></thead>
        <tbody>${this.balances.map((row) => html`<tr><td>${row.type_name}</td><td>${amountText(row.balance, row.unit)}</td><td>${amountText(row.pending, row.unit)}</td><td>${amountText(row.available, row.unit)}</td></tr>`)}</tbody>
      </table>
      <h2>Request time off</h2>
      <wpk-schema-form .schema=${this.schema()} .value=${{}} submit-label="Request time off" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.ask(event)}></wpk-schema-form>
      <h2>My requests</h2>
      ${this.requests.length
        ? html`<ul class="cards" aria-label="My requests">${this.requests.map((request) => html`<li>
            <strong>${request.type_name}</strong> · ${spanText(request)} · ${amountText(request.duration, this.types.find((type) => type.id === request.type_id)?.unit ?? 'day')}
            <div class="muted">${STATUS_LABELS[request.status]}${request.reason ? ` · ${request.reason}` : ''}</div>
            ${request.status === 'submitted' ? html`<div class="actions"><wa-button size="small" @click=${() => this.withdraw(request)}>Withdraw</wa-button></div>` : ''}
          </li>`)}</ul>`
        : html`<p class="muted">No request yet.</p>`}`;
  }
}

customElements.define('leaves-mine', LeavesMine);
