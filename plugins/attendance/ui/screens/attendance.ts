import { LitElement, appLink, css, errorText, html, kit, nothing, screenStyles, toast } from '@wpk/ui';
import { duration, fromLocalInput, hint, refusalFor, toLocalInput, when, type AttendanceWithCorrections, type Correction } from '../api.js';

const FIELDS = ['check_in_at', 'check_out_at', 'reason'] as const;

/** `/attendances/{id}`: one attendance with its breaks and audit trail, and a manager's correction of its times. */
export class AttendanceAttendance extends LitElement {
  static override properties = {
    attendanceId: { attribute: 'attendance-id' },
    attendance: { state: true },
    names: { state: true },
    error: { state: true },
    refusal: { state: true },
    busy: { state: true },
  };
  declare attendanceId: string;
  declare attendance: AttendanceWithCorrections | null;
  /** Who corrected, by member id (the shell's directory). */
  declare names: Map<string, string>;
  declare error: string | null;
  declare refusal: { field: string | null; message: string } | null;
  declare busy: boolean;

  constructor() {
    super();
    this.attendanceId = '';
    this.attendance = null;
    this.names = new Map();
    this.error = null;
    this.refusal = null;
    this.busy = false;
  }

  static override styles = [
    screenStyles,
    css`
      dl { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: var(--wpk-space-2) var(--wpk-space-4); margin: 0; }
      @media (max-width: 480px) { dl { grid-template-columns: minmax(0, 1fr); } dd { margin-bottom: var(--wpk-space-2); } }
      dt { color: var(--wpk-color-text-muted); }
      dd { margin: 0; }
      ul, ol { margin: 0; padding-left: var(--wpk-space-4); }
      ol.trail li { margin-bottom: var(--wpk-space-2); }
      form { display: grid; gap: var(--wpk-space-3); max-width: 36rem; }
      .times { display: grid; gap: var(--wpk-space-3); grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.attendance = (await kit().client.attendance.getAttendanceAttendancesByAttendanceId({ params: { attendance_id: this.attendanceId } })).data as AttendanceWithCorrections;
      void kit().bridge.title(`${this.attendance.member_name ?? 'Attendance'}, ${this.attendance.work_date}`);
      const unknown = [...new Set(this.attendance.corrections.map((correction) => correction.corrected_by))].filter((id) => !this.names.has(id));
      if (unknown.length) this.names = new Map([...this.names, ...(await kit().bridge.members(unknown)).map((member) => [member.id, member.name] as const)]);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async correct(event: Event): Promise<void> {
    event.preventDefault();
    const attendance = this.attendance!;
    const form = event.target as HTMLFormElement;
    const value = (name: string) => String((form.querySelector(`[name="${name}"]`) as HTMLInputElement | null)?.value ?? '');
    const reason = value('reason').trim();
    const body: Record<string, unknown> = reason ? { reason } : {};
    if (value('check_in_at') !== toLocalInput(attendance.check_in_at)) body.check_in_at = fromLocalInput(value('check_in_at'));
    if (value('check_out_at') !== toLocalInput(attendance.check_out_at)) body.check_out_at = fromLocalInput(value('check_out_at'));
    this.busy = true;
    this.refusal = null;
    try {
      await kit().client.attendance.patchAttendanceAttendancesByAttendanceId({ params: { attendance_id: attendance.id }, body: body as never });
      toast('Attendance corrected', 'success');
      form.reset();
      await this.load();
    } catch (error) {
      this.busy = false; // in the refusal's render: the button is enabled again when the refusal shows
      this.refusal = refusalFor(error, FIELDS);
      await this.updateComplete;
      (this.renderRoot.querySelector(this.refusal.field ? `[name="${this.refusal.field}"]` : '#correction-error') as HTMLElement | null)?.focus();
    } finally {
      this.busy = false;
    }
  }

  private change(correction: Correction) {
    const before = correction.before;
    const after = correction.after;
    const time = (value: string | null | undefined) => (value ? when(value) : 'open');
    const parts = [];
    if (!before) parts.push(html`added: ${time(after.check_in_at)} – ${time(after.check_out_at)}`);
    else {
      if (before.check_in_at !== after.check_in_at) parts.push(html`check-in ${time(before.check_in_at)} → ${time(after.check_in_at)}`);
      if (before.check_out_at !== after.check_out_at) parts.push(html`check-out ${time(before.check_out_at)} → ${time(after.check_out_at)}`);
      if (correction.changed_fields.includes('breaks')) parts.push(html`breaks changed`);
      if (correction.changed_fields.includes('location_id')) parts.push(html`location changed`);
    }
    return parts.map((part, index) => html`${index ? '; ' : ''}${part}`);
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/attendances', 'Back to attendances')}</p>`;
    const attendance = this.attendance;
    if (!attendance) return html`<wa-spinner label="Loading the attendance"></wa-spinner>`;
    return html`<p class="back">${appLink('/attendances', '← All attendances')}</p>
      <h1>${attendance.member_name ?? 'A former member'}, ${when(attendance.work_date, 'date')}</h1>
      <dl>
        <dt>Check-in</dt><dd>${when(attendance.check_in_at)}${attendance.location_name ? ` at ${attendance.location_name}` : ''}</dd>
        <dt>Check-out</dt><dd>${attendance.check_out_at ? when(attendance.check_out_at) : 'Still clocked in'}</dd>
        <dt>Worked</dt><dd>${duration(attendance.worked_seconds)}, breaks ${duration(attendance.break_seconds)}, net ${duration(attendance.net_seconds)}</dd>
        ${attendance.breaks.length
          ? html`<dt>Breaks</dt><dd><ul>${attendance.breaks.map((entry) => html`<li>${when(entry.start_at, 'time')} – ${entry.end_at ? when(entry.end_at, 'time') : 'now'} (${duration(entry.seconds)})</li>`)}</ul></dd>`
          : nothing}
        ${attendance.check_in_position?.distance_m !== undefined ? html`<dt>Position</dt><dd>${Math.round(attendance.check_in_position.distance_m)} m from the location at check-in</dd>` : nothing}
        <dt>Recorded</dt><dd>${attendance.source === 'manual' ? 'Added by a manager' : 'By the clock'}${attendance.corrected ? ', corrected' : ''}</dd>
      </dl>

      <h2>Correct the times</h2>
      <form @submit=${this.correct} novalidate>
        ${this.refusal && !this.refusal.field ? html`<p id="correction-error" class="error" role="alert" tabindex="-1">${this.refusal.message}</p>` : nothing}
        <div class="times">
          <wa-input name="check_in_at" label="Check-in" type="datetime-local" .value=${toLocalInput(attendance.check_in_at)} aria-invalid=${this.refusal?.field === 'check_in_at' ? 'true' : 'false'}>${hint(this.refusal, 'check_in_at')}</wa-input>
          <wa-input name="check_out_at" label="Check-out" type="datetime-local" .value=${toLocalInput(attendance.check_out_at)} aria-invalid=${this.refusal?.field === 'check_out_at' ? 'true' : 'false'}>${hint(this.refusal, 'check_out_at', attendance.open ? 'Giving one closes the attendance.' : undefined)}</wa-input>
        </div>
        <wa-textarea name="reason" label="Reason" required minlength="3" maxlength="500" rows="2" aria-invalid=${this.refusal?.field === 'reason' ? 'true' : 'false'}>${hint(this.refusal, 'reason', 'Kept in the audit trail with the times before and after.')}</wa-textarea>
        <div><wa-button type="submit" variant="brand" ?loading=${this.busy} ?disabled=${this.busy}>Save correction</wa-button></div>
      </form>

      <h2>Audit trail</h2>
      ${attendance.corrections.length === 0
        ? html`<p class="muted">Not corrected.</p>`
        : html`<ol class="trail">
            ${attendance.corrections.map(
              (correction) => html`<li>${when(correction.created_at)}, ${this.names.get(correction.corrected_by) ?? 'a former member'}: ${this.change(correction)}. <q>${correction.reason}</q></li>`,
            )}
          </ol>`}`;
  }
}

customElements.define('attendance-attendance', AttendanceAttendance);
