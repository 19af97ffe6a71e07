import { LitElement, appLink, confirmAction, errorText, html, kit, memberIdOf, memberNames, nothing, screenStyles, toast } from '@wpk/ui';
import { CARD_STYLES, STATUSES, joinHref, type Call } from '../api.js';

/** `/calls/:call_id`: a call, who takes part and who is in it now; Join (the call's own page), End for its hosts. */
export class CallsCall extends LitElement {
  static override properties = { callId: { attribute: 'call-id' }, call: { state: true }, names: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare callId: string;
  declare call: Call | null;
  declare names: Map<string, string>;
  declare error: string | null;

  constructor() {
    super();
    this.callId = '';
    this.call = null;
    this.names = new Map();
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.call = (await kit().client.calls.getCallsById({ params: { id: this.callId } })).data as Call;
      void kit().bridge.title(this.call.title);
      this.names = await memberNames(this.call.participants.map((row) => row.member_mrn));
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private get isHost(): boolean {
    return Boolean(this.call?.participants.some((row) => row.role === 'host' && memberIdOf(row.member_mrn) === kit().member.id));
  }

  private async end(): Promise<void> {
    const call = this.call!;
    const ending = call.status === 'active';
    if (!(await confirmAction({ title: ending ? 'End the call?' : 'Cancel the call?', message: ending ? 'Everyone in it leaves.' : 'It can no longer be joined.', confirm_label: ending ? 'End' : 'Cancel the call', danger: true }))) return;
    try {
      this.call = (await kit().client.calls.patchCallsById({ params: { id: call.id }, body: { status: ending ? 'ended' : 'cancelled' } })).data as Call;
      toast(ending ? 'The call ended' : 'The call is cancelled', 'success');
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    const call = this.call;
    if (!call) return this.error ? html`<h1>Call</h1><p class="error" role="alert">${this.error}</p>` : html`<wa-spinner label="Loading the call"></wa-spinner>`;
    const open = call.status === 'waiting' || call.status === 'active';
    return html`<p class="back">${appLink('/', '← My calls')}</p>
      <h1>${call.title}</h1>
      <p>${STATUSES[call.status] ?? call.status} · ${call.mode === 'video' ? 'Video call' : 'Audio call'}${call.scheduled_at ? html` · <wpk-date value=${call.scheduled_at} format="datetime"></wpk-date>` : nothing}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${open
        ? html`<div class="actions">
            <button type="button" @click=${() => void kit().bridge.open(joinHref(call.id))}>Join the call</button>
            ${this.isHost ? html`<button type="button" @click=${() => this.end()}>${call.status === 'active' ? 'End the call' : 'Cancel the call'}</button>` : nothing}
          </div>`
        : nothing}
      <h2>Participants</h2>
      <div class="scroll">
        <table aria-label="Participants">
          <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Now</th></tr></thead>
          <tbody>${call.participants.map((row) => html`<tr>
            <td>${this.names.get(memberIdOf(row.member_mrn) ?? '') ?? 'A former member'}</td>
            <td>${row.role === 'host' ? 'Host' : 'Participant'}</td>
            <td>${row.in_session ? 'In the call' : '—'}</td>
          </tr>`)}</tbody>
        </table>
      </div>`;
  }
}

customElements.define('calls-call', CallsCall);
