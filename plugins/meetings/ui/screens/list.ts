import { LitElement, appLink, errorText, html, kit, memberIdOf, nothing, screenStyles } from '@wpk/ui';
import { ANSWERS, CARD_STYLES, type Meeting } from '../api.js';

/** `/`: the meetings the member organizes or attends that have not ended yet, soonest first, with their own answer. */
export class MeetingsList extends LitElement {
  static override properties = { meetings: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare meetings: Meeting[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.meetings = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Upcoming meetings');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.meetings = (await kit().client.meetings.getMeetings({ query: { from: new Date().toISOString(), per_page: 100 } })).data as Meeting[];
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** The member's own answer, or "You organize it". */
  private roleText(meeting: Meeting): string {
    if (memberIdOf(meeting.organizer_mrn) === kit().member.id) return 'You organize it';
    const mine = meeting.attendees.find((attendee) => memberIdOf(attendee.member_mrn) === kit().member.id);
    return mine ? ANSWERS[mine.status] ?? mine.status : '';
  }

  protected override render() {
    if (this.error) return html`<h1>Upcoming meetings</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.meetings) return html`<wa-spinner label="Loading the meetings"></wa-spinner>`;
    return html`<h1>Upcoming meetings</h1>
      ${this.meetings.length
        ? html`<ul class="cards" aria-label="Upcoming meetings">${this.meetings.map((meeting) => html`<li>
            ${appLink(`/meetings/${meeting.id}`, html`<strong>${meeting.title}</strong>`)}
            ${meeting.status === 'cancelled' ? html` · <span class="cancelled">Cancelled</span>` : nothing}
            <div><wpk-date value=${meeting.starts_at} format="datetime"></wpk-date> to <wpk-date value=${meeting.ends_at} format="datetime"></wpk-date>${meeting.location ? ` · ${meeting.location}` : ''}</div>
            <div class="muted">${this.roleText(meeting)} · ${meeting.attendees.length} ${meeting.attendees.length === 1 ? 'attendee' : 'attendees'}</div>
          </li>`)}</ul>`
        : html`<p class="muted">No meeting ahead. ${appLink('/new', 'Schedule one')}.</p>`}`;
  }
}

customElements.define('meetings-list', MeetingsList);
