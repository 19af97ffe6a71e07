import { LitElement, appLink, confirmAction, errorText, html, kit, memberIdOf, memberNames, nothing, screenStyles, toast } from '@wpk/ui';
import { CARD_STYLES, RECORDING_STATUSES, STATUSES, duration, joinHref, myKeys, type Call, type Recording } from '../api.js';

/**
 * `/calls/:call_id`: a call, who takes part and who is in it now; Join (the call's own page), End
 * for its hosts, who also change roles and invite more members (the shell's picker). Its
 * recordings: state, length, when; a ready one downloads; Delete where the API allows it (the
 * recorder, the call's hosts, `calls.recordings.delete` or `calls.calls.manage`).
 */
export class CallsCall extends LitElement {
  static override properties = { callId: { attribute: 'call-id' }, call: { state: true }, names: { state: true }, error: { state: true }, recordings: { state: true }, keys: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare callId: string;
  declare call: Call | null;
  declare names: Map<string, string>;
  declare error: string | null;
  declare recordings: Recording[];
  declare keys: Set<string>;

  constructor() {
    super();
    this.callId = '';
    this.call = null;
    this.names = new Map();
    this.error = null;
    this.recordings = [];
    this.keys = new Set();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const client = kit().client.calls;
      const [call, recordings, keys] = await Promise.all([client.getCallsById({ params: { id: this.callId } }), client.getCallsByIdRecordings({ params: { id: this.callId }, query: { per_page: 100 } }), myKeys()]);
      const rows = recordings.data as Recording[];
      // The names first: the tables show no one as a former member while the directory answers.
      this.names = await memberNames([...(call.data as Call).participants.map((row) => row.member_mrn), ...rows.map((row) => row.recorder_mrn)]);
      this.call = call.data as Call;
      this.recordings = rows;
      this.keys = keys;
      void kit().bridge.title(this.call.title);
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

  /** A host makes a participant host, or a host a participant (the API keeps one host). */
  private async setRole(memberMrn: string, role: 'host' | 'participant', select: HTMLSelectElement): Promise<void> {
    this.error = null;
    try {
      await kit().client.calls.patchCallsByIdParticipantsByMemberMrn({ params: { id: this.callId, member_mrn: memberMrn }, body: { role } });
      this.call = (await kit().client.calls.getCallsById({ params: { id: this.callId } })).data as Call;
      toast(`${this.nameOf(memberMrn)} is now ${role === 'host' ? 'a host' : 'a participant'}`, 'success');
    } catch (error) {
      this.error = errorText(error);
      select.value = role === 'host' ? 'participant' : 'host';
    }
  }

  /** A host invites more members, chosen in the shell's picker. */
  private async invite(): Promise<void> {
    const chosen = await kit().bridge.pickMembers({ title: 'Invite to the call', multiple: true });
    if (!chosen.length) return;
    this.error = null;
    try {
      this.call = (await kit().client.calls.patchCallsById({ params: { id: this.callId }, body: { participant_mrns: chosen.map((member) => `mrn:account:member:${member.id}`) } })).data as Call;
      for (const member of chosen) this.names.set(member.id, member.name);
      toast(chosen.length === 1 ? `${chosen[0]!.name} is invited` : `${chosen.length} members are invited`, 'success');
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private nameOf(mrn: string | null | undefined): string {
    return this.names.get(memberIdOf(mrn) ?? '') ?? 'A former member';
  }

  /** Whether the API lets the member delete this recording. */
  private mayDelete(recording: Recording): boolean {
    return memberIdOf(recording.recorder_mrn) === kit().member.id || this.isHost || this.keys.has('calls.recordings.delete') || this.keys.has('calls.calls.manage');
  }

  private async deleteRecording(recording: Recording): Promise<void> {
    if (!(await confirmAction({ title: 'Delete the recording?', message: 'Its file is deleted too.', confirm_label: 'Delete', danger: true }))) return;
    try {
      await kit().client.calls.deleteCallsByIdRecordingsByRecordingId({ params: { id: this.callId, recording_id: recording.id } });
      this.recordings = this.recordings.filter((row) => row.id !== recording.id);
      toast('The recording is deleted', 'success');
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private participants(call: Call) {
    const open = call.status === 'waiting' || call.status === 'active';
    const hosting = this.isHost && open;
    return html`<h2>Participants</h2>
      ${hosting ? html`<div class="actions"><button type="button" @click=${() => this.invite()}>Invite members</button></div>` : nothing}
      <div class="scroll">
        <table aria-label="Participants">
          <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Now</th></tr></thead>
          <tbody>${call.participants.map((row) => html`<tr>
            <td>${this.nameOf(row.member_mrn)}</td>
            <td>${hosting
              ? html`<select aria-label=${`Role of ${this.nameOf(row.member_mrn)}`} @change=${(event: Event) => this.setRole(row.member_mrn, (event.target as HTMLSelectElement).value as 'host' | 'participant', event.target as HTMLSelectElement)}>
                  <option value="host" ?selected=${row.role === 'host'}>Host</option>
                  <option value="participant" ?selected=${row.role !== 'host'}>Participant</option>
                </select>`
              : row.role === 'host' ? 'Host' : 'Participant'}</td>
            <td>${row.in_session ? 'In the call' : '—'}</td>
          </tr>`)}</tbody>
        </table>
      </div>`;
  }

  private recordingsSection() {
    const rows = this.recordings;
    return html`<h2>Recordings</h2>
      ${rows.length
        ? html`<div class="scroll">
            <table aria-label="Recordings">
              <thead><tr><th scope="col">Recorded by</th><th scope="col">State</th><th scope="col">Length</th><th scope="col">Started</th><th scope="col"><span class="wpk-visually-hidden">Actions</span></th></tr></thead>
              <tbody>${rows.map((row) => html`<tr>
                <td>${this.nameOf(row.recorder_mrn)}</td>
                <td>${RECORDING_STATUSES[row.status] ?? row.status}</td>
                <td>${duration(row.duration_seconds)}</td>
                <td><wpk-date value=${row.created_at} format="datetime"></wpk-date></td>
                <td><div class="actions">
                  ${row.status === 'ready' && row.download_url ? html`<a href=${row.download_url} target="_blank" rel="noopener" download>Download</a>` : nothing}
                  ${this.mayDelete(row) ? html`<button type="button" aria-label=${`Delete the recording by ${this.nameOf(row.recorder_mrn)} of ${duration(row.duration_seconds)}`} @click=${() => this.deleteRecording(row)}>Delete</button>` : nothing}
                </div></td>
              </tr>`)}</tbody>
            </table>
          </div>`
        : html`<p class="muted">No recording.</p>`}`;
  }

  protected override render() {
    const call = this.call;
    if (!call) return this.error ? html`<h1>Call</h1><p class="error" role="alert">${this.error}</p>` : html`<wa-spinner label="Loading the call"></wa-spinner>`;
    const open = call.status === 'waiting' || call.status === 'active';
    const recordingNow = call.status === 'active' && this.recordings.some((row) => row.status === 'uploading');
    return html`<p class="back">${appLink('/', '← My calls')}</p>
      <h1>${call.title}</h1>
      <p>${STATUSES[call.status] ?? call.status} · ${call.mode === 'video' ? 'Video call' : 'Audio call'}${call.scheduled_at ? html` · <wpk-date value=${call.scheduled_at} format="datetime"></wpk-date>` : nothing}${recordingNow ? ' · Being recorded' : ''}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${open
        ? html`<div class="actions">
            <button type="button" @click=${() => void kit().bridge.open(joinHref(call.id))}>Join the call</button>
            ${this.isHost ? html`<button type="button" @click=${() => this.end()}>${call.status === 'active' ? 'End the call' : 'Cancel the call'}</button>` : nothing}
          </div>`
        : nothing}
      ${this.participants(call)}
      ${this.recordingsSection()}`;
  }
}

customElements.define('calls-call', CallsCall);
