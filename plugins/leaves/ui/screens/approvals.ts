import { LitElement, errorText, html, kit, screenStyles, toast } from '@wpk/ui';
import { CARD_STYLES, amountText, leaveTypes, myBalances, spanText, type LeaveRequest, type LeaveType } from '../api.js';

/** `/approvals`: the requests waiting for the member's decision (as a manager, or HR), to approve or refuse with a reason. */
export class LeavesApprovals extends LitElement {
  static override properties = { requests: { state: true }, types: { state: true }, error: { state: true }, loaded: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare requests: LeaveRequest[];
  declare types: LeaveType[];
  declare error: string | null;
  declare loaded: boolean;

  constructor() {
    super();
    this.requests = [];
    this.types = [];
    this.error = null;
    this.loaded = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Approvals');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const [balances, types, waiting] = await Promise.all([myBalances(), leaveTypes(), kit().client.leaves.getLeavesRequests({ query: { status: 'submitted', per_page: 100 } })]);
      const me = balances[0]?.worker_id;
      this.types = types;
      this.requests = (waiting.data as LeaveRequest[]).filter((request) => request.worker_id !== me);
    } catch (error) {
      this.error = errorText(error);
    }
    this.loaded = true;
  }

  private async decide(request: LeaveRequest, status: 'approved' | 'refused'): Promise<void> {
    const reason = String((this.renderRoot.querySelector(`#reason-${request.id}`) as { value?: unknown } | null)?.value ?? '').trim();
    try {
      const moved = (await kit().client.leaves.patchLeavesRequestsByRequestId({ params: { request_id: request.id }, body: { status, ...(reason ? { reason } : {}) } })).data as LeaveRequest;
      toast(moved.status === 'submitted' ? `Approved for ${request.worker_name}: HR decides next` : `${status === 'approved' ? 'Approved' : 'Refused'}: ${request.worker_name}, ${spanText(request)}`, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const unit = (request: LeaveRequest) => this.types.find((type) => type.id === request.type_id)?.unit ?? 'day';
    return html`<h1>Approvals</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${this.loaded && !this.requests.length ? html`<p class="muted">Nothing waits for your decision.</p>` : ''}
      <ul class="cards" aria-label="Waiting for your decision">${this.requests.map((request) => html`<li>
        <strong>${request.worker_name}</strong> · ${request.type_name} · ${spanText(request)} · ${amountText(request.duration, unit(request))}
        ${request.note ? html`<div class="muted">${request.note}</div>` : ''}
        <div class="actions">
          <wa-button variant="brand" size="small" @click=${() => this.decide(request, 'approved')}>Approve</wa-button>
          <wa-input size="small" label="Reason (to refuse)" id=${`reason-${request.id}`} maxlength="1000"></wa-input>
          <wa-button variant="danger" size="small" @click=${() => this.decide(request, 'refused')}>Refuse</wa-button>
        </div>
      </li>`)}</ul>`;
  }
}

customElements.define('leaves-approvals', LeavesApprovals);
