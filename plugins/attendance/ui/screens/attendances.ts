import { LitElement, appLink, css, html, kit, nothing, screenStyles, toast, type PickedMember, type TableColumn, type WpkDataTable } from '@wpk/ui';
import { allLocations, duration, fromLocalInput, hint, refusalFor, when, type Attendance, type Location } from '../api.js';

const FIELDS = ['member_id', 'check_in_at', 'check_out_at', 'location_id', 'reason'] as const;

/**
 * `/attendances`: the attendances, newest first (everyone's for a member who may read them, else
 * one's own), each opening its page for a correction; and a manager's form for an attendance a
 * member did not clock.
 */
export class AttendanceAttendances extends LitElement {
  static override properties = { member: { state: true }, locations: { state: true }, refusal: { state: true }, busy: { state: true } };
  /** The member of the missed attendance, chosen in the shell's picker. */
  declare member: PickedMember | null;
  declare locations: Location[];
  declare refusal: { field: string | null; message: string } | null;
  declare busy: boolean;

  constructor() {
    super();
    this.member = null;
    this.locations = [];
    this.refusal = null;
    this.busy = false;
  }

  static override styles = [
    screenStyles,
    css`
      .layout { display: grid; gap: var(--wpk-space-5); grid-template-columns: minmax(0, 2fr) minmax(16rem, 1fr); align-items: start; }
      @media (max-width: 860px) { .layout { grid-template-columns: minmax(0, 1fr); } }
      section { min-width: 0; }
      h2 { margin: 0 0 var(--wpk-space-3); }
      form { display: grid; gap: var(--wpk-space-3); }
      .who { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; }
      label { display: grid; gap: var(--wpk-space-1); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Attendances');
    void allLocations()
      .then((locations) => (this.locations = locations))
      .catch(() => undefined);
  }

  private readonly columns: TableColumn<Attendance>[] = [
    { key: 'member_name', label: 'Member', render: (attendance) => attendance.member_name ?? 'A former member' },
    { key: 'check_in_at', label: 'Time', render: (attendance) => appLink(`/attendances/${attendance.id}`, `${when(attendance.check_in_at)} – ${attendance.check_out_at ? when(attendance.check_out_at, 'time') : 'open'}`) },
    { key: 'location_name', label: 'Location', render: (attendance) => attendance.location_name ?? '' },
    { key: 'net_seconds', label: 'Net', render: (attendance) => duration(attendance.net_seconds) },
    { key: 'corrected', label: 'Corrected', render: (attendance) => (attendance.source === 'manual' ? 'Added' : attendance.corrected ? 'Yes' : '') },
  ];

  private async choose(): Promise<void> {
    const [chosen] = await kit().bridge.pickMembers({ title: 'Whose attendance?' });
    if (chosen) this.member = chosen;
  }

  private async add(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const value = (name: string) => String((form.querySelector(`[name="${name}"]`) as HTMLInputElement | null)?.value ?? '').trim();
    this.refusal = null;
    if (!this.member) {
      this.refusal = { field: 'member_id', message: 'member_id is required: choose the member' };
      return;
    }
    const body = {
      member_id: this.member.id,
      check_in_at: fromLocalInput(value('check_in_at')),
      check_out_at: fromLocalInput(value('check_out_at')),
      ...(value('location_id') ? { location_id: value('location_id') } : {}),
      ...(value('reason') ? { reason: value('reason') } : {}),
    };
    this.busy = true;
    try {
      await kit().client.attendance.postAttendanceAttendances({ body: body as never });
      toast(`Attendance of ${this.member.name} added`, 'success');
      form.reset();
      this.member = null;
      await this.renderRoot.querySelector<WpkDataTable>('wpk-data-table')?.reload();
    } catch (error) {
      this.refusal = refusalFor(error, FIELDS);
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    const refusal = this.refusal;
    return html`<div class="layout">
      <section aria-labelledby="attendances-heading">
        <h1 id="attendances-heading">Attendances</h1>
        <wpk-data-table caption="Newest first; open one to correct it" .source=${'/attendance/attendances'} .columns=${this.columns} empty="No attendance yet."></wpk-data-table>
      </section>
      <section aria-labelledby="missed-heading">
        <h2 id="missed-heading">Add a missed attendance</h2>
        <form @submit=${this.add} novalidate>
          ${refusal && !refusal.field ? html`<p class="error" role="alert">${refusal.message}</p>` : nothing}
          <div class="who">
            <span id="who-label">Member: ${this.member ? html`<strong>${this.member.name}</strong>` : html`<span class="muted">nobody chosen</span>`}</span>
            <wa-button size="small" aria-describedby="who-label" @click=${() => this.choose()}>Choose member</wa-button>
          </div>
          ${refusal?.field === 'member_id' ? html`<p class="error" role="alert">${refusal.message}</p>` : nothing}
          <wa-input name="check_in_at" label="Check-in" type="datetime-local" required aria-invalid=${refusal?.field === 'check_in_at' ? 'true' : 'false'}>${hint(refusal, 'check_in_at')}</wa-input>
          <wa-input name="check_out_at" label="Check-out" type="datetime-local" required aria-invalid=${refusal?.field === 'check_out_at' ? 'true' : 'false'}>${hint(refusal, 'check_out_at')}</wa-input>
          <label>Location
            <select name="location_id">
              <option value="">No location</option>
              ${this.locations.map((location) => html`<option value=${location.id}>${location.name}</option>`)}
            </select>
          </label>
          ${refusal?.field === 'location_id' ? html`<p class="error" role="alert">${refusal.message}</p>` : nothing}
          <wa-textarea name="reason" label="Reason" required minlength="3" maxlength="500" rows="2" aria-invalid=${refusal?.field === 'reason' ? 'true' : 'false'}>${hint(refusal, 'reason')}</wa-textarea>
          <div><wa-button type="submit" variant="brand" ?loading=${this.busy} ?disabled=${this.busy}>Add attendance</wa-button></div>
        </form>
      </section>
    </div>`;
  }
}

customElements.define('attendance-attendances', AttendanceAttendances);
