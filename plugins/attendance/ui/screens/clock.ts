import { LitElement, appLink, css, errorText, html, kit, nothing, screenStyles, toast } from '@wpk/ui';
import { allLocations, duration, isoDay, when, type Attendance, type Location, type Status } from '../api.js';

/**
 * `/`: the member's clock. Clock in (at a location, or none), start and end a break, clock out.
 * At a location with a geofence the clock-in and the clock-out carry the device's position, which
 * the shell reads for the app (bridge `position`: the frame has no geolocation of its own).
 */
export class AttendanceClock extends LitElement {
  static override properties = {
    status: { state: true },
    locations: { state: true },
    today: { state: true },
    busy: { state: true },
    error: { state: true },
    loadError: { state: true },
    tick: { state: true },
  };
  declare status: Status | null;
  declare locations: Location[];
  declare today: Attendance[];
  declare busy: boolean;
  declare error: string | null;
  declare loadError: string | null;
  /** Bumped every 30 s while clocked in, so the time worked so far moves. */
  declare tick: number;
  private loadedAt = Date.now();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.status = null;
    this.locations = [];
    this.today = [];
    this.busy = false;
    this.error = null;
    this.loadError = null;
    this.tick = 0;
  }

  static override styles = [
    screenStyles,
    css`
      .card { background: var(--wpk-color-surface); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-l); padding: var(--wpk-space-4); max-width: 36rem; }
      .state { font-size: var(--wpk-font-size-l); font-weight: var(--wpk-font-weight-bold); margin: 0 0 var(--wpk-space-2); }
      .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin-top: var(--wpk-space-3); }
      label { display: grid; gap: var(--wpk-space-1); font-weight: var(--wpk-font-weight-bold); max-width: 24rem; }
      select { font-weight: var(--wpk-font-weight-normal); }
      .hint { font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); margin: var(--wpk-space-1) 0 0; }
      ul.today { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--wpk-space-2); }
      .error { margin: var(--wpk-space-3) 0 0; }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Clock');
    void this.load();
    this.timer = setInterval(() => {
      if (this.status?.clocked_in) this.tick += 1;
    }, 30_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.timer);
  }

  private async load(): Promise<void> {
    const { client, member } = kit();
    try {
      const [status, locations, today] = await Promise.all([
        client.attendance.getAttendanceStatus(),
        this.locations.length ? Promise.resolve(this.locations) : allLocations(),
        client.attendance.getAttendanceAttendances({ query: { member_id: member.id, from: isoDay(new Date(Date.now() - 86_400_000)), to: isoDay(new Date(Date.now() + 86_400_000)), per_page: 20 } }),
      ]);
      this.status = status.data as Status;
      this.locations = locations;
      this.today = today.data as Attendance[];
      this.loadedAt = Date.now();
      this.loadError = null;
    } catch (error) {
      this.loadError = errorText(error);
    }
  }

  private location(id: string | null | undefined): Location | undefined {
    return this.locations.find((location) => location.id === id);
  }

  /** The device's position when `location` has a geofence (the shell asks the person, then the browser); {} otherwise. */
  private async positionFor(location: Location | undefined, action: string): Promise<Record<string, number>> {
    if (!location?.geofence) return {};
    return { ...(await kit().bridge.position(`to ${action} at ${location.name}, which checks that you are within its geofence`)) };
  }

  /** Runs one clock action: the button shows it is busy, a refusal shows under the buttons, success reloads the state. */
  private async act(run: () => Promise<string>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      const done = await run();
      toast(done, 'success');
      await this.load();
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  private clockIn(): Promise<void> {
    return this.act(async () => {
      const select = this.renderRoot.querySelector<HTMLSelectElement>('#location');
      const location = this.location(select?.value || null);
      const body = { ...(location ? { location_id: location.id } : {}), ...(await this.positionFor(location, 'clock you in')) };
      await kit().client.attendance.postAttendanceClockIns({ body: body as never });
      return location ? `Clocked in at ${location.name}` : 'Clocked in';
    });
  }

  private clockOut(): Promise<void> {
    return this.act(async () => {
      const location = this.location(this.status?.attendance?.location_id);
      await kit().client.attendance.postAttendanceClockOuts({ body: (await this.positionFor(location, 'clock you out')) as never });
      return 'Clocked out';
    });
  }

  private breakStart(): Promise<void> {
    return this.act(async () => {
      await kit().client.attendance.postAttendanceBreakStarts({ body: {} as never });
      return 'Break started';
    });
  }

  private breakEnd(): Promise<void> {
    return this.act(async () => {
      await kit().client.attendance.postAttendanceBreakEnds({ body: {} as never });
      return 'Break ended';
    });
  }

  private clockedIn(attendance: Attendance) {
    const since = (Date.now() - this.loadedAt) / 1000;
    const openBreak = attendance.breaks.find((entry) => entry.end_at === null);
    return html`<p class="state">${attendance.on_break ? 'On a break' : 'Clocked in'}</p>
      <p>Since ${when(attendance.check_in_at, 'time')}${attendance.location_name ? ` at ${attendance.location_name}` : ''}${openBreak ? html`; on a break since ${when(openBreak.start_at, 'time')}` : nothing}.</p>
      <p>Worked so far: ${duration(attendance.net_seconds + (attendance.on_break ? 0 : since))}${attendance.break_seconds || openBreak ? html`, breaks ${duration(attendance.break_seconds + (attendance.on_break ? since : 0))}` : nothing}</p>
      <div class="actions">
        ${attendance.on_break
          ? html`<wa-button variant="brand" ?loading=${this.busy} ?disabled=${this.busy} @click=${() => this.breakEnd()}>End break</wa-button>`
          : html`<wa-button ?disabled=${this.busy} @click=${() => this.breakStart()}>Start break</wa-button>`}
        <wa-button variant="danger" ?loading=${this.busy} ?disabled=${this.busy} @click=${() => this.clockOut()}>Clock out</wa-button>
      </div>`;
  }

  private clockedOut() {
    return html`<p class="state">Not clocked in</p>
      <label for="location">Location
        <select id="location" aria-describedby="location-hint">
          <option value="">No location</option>
          ${this.locations.map((location) => html`<option value=${location.id}>${location.name}${location.geofence ? ' (checks your position)' : ''}</option>`)}
        </select>
      </label>
      <p id="location-hint" class="hint">At a location with a geofence, your browser tells the workspace where you are when you clock in and out.</p>
      <div class="actions"><wa-button variant="brand" ?loading=${this.busy} ?disabled=${this.busy} @click=${() => this.clockIn()}>Clock in</wa-button></div>`;
  }

  protected override render() {
    void this.tick;
    if (this.loadError) return html`<p class="error" role="alert">${this.loadError}</p>`;
    if (!this.status) return html`<wa-spinner label="Loading your clock"></wa-spinner>`;
    const open = this.status.attendance;
    return html`<h1>Clock</h1>
      <section class="card" aria-label="Your clock">
        ${open ? this.clockedIn(open) : this.clockedOut()}
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      </section>
      <h2>Recent</h2>
      ${this.today.length === 0
        ? html`<p class="muted">No attendance since yesterday.</p>`
        : html`<ul class="today">
            ${this.today.map(
              (attendance) => html`<li>${appLink(`/attendances/${attendance.id}`, `${when(attendance.check_in_at, 'time')} – ${attendance.check_out_at ? when(attendance.check_out_at, 'time') : 'now'}`)}
                ${attendance.location_name ? html`at ${attendance.location_name}` : nothing} · ${duration(attendance.net_seconds)} net${attendance.corrected ? ' · corrected' : ''}</li>`,
            )}
          </ul>`}
      <p>${appLink('/timesheet', 'See my timesheet')}</p>`;
  }
}

customElements.define('attendance-clock', AttendanceClock);
