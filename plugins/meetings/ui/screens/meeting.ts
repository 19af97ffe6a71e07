import { LitElement, confirmAction, errorText, html, kit, memberIdOf, memberMrn, memberNames, nothing, screenStyles, toast, type WpkMemberPicker } from '@wpk/ui';
import { ANSWERS, CARD_STYLES, type Attendee, type Meeting } from '../api.js';

/** The answers a member can give, in the order they are offered. */
const OFFERED = [
  ['accepted', 'Going'],
  ['tentative', 'Maybe'],
  ['declined', 'Not going'],
] as const;

/**
 * `/meetings/{id}`: a meeting with when and where, its agenda, its call's link once the calls
 * app made it, and who comes with their answers; an invited member answers here; the organizer
 * invites more members, removes attendees and cancels the meeting.
 */
export class MeetingsMeeting extends LitElement {
  static override properties = { meetingId: { attribute: 'meeting-id' }, meeting: { state: true }, names: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare meetingId: string;
  declare meeting: Meeting | null;
  declare names: Map<string, string>;
  declare error: string | null;

  constructor() {
    super();
    this.meetingId = '';
    this.meeting = null;
    this.names = new Map();
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const meeting = (await kit().client.meetings.getMeetingsById({ params: { id: this.meetingId } })).data as Meeting;
      this.names = await memberNames([meeting.organizer_mrn, ...meeting.attendees.map((attendee) => attendee.member_mrn)]);
      this.meeting = meeting;
      void kit().bridge.title(meeting.title);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private nameOf(attendee: Attendee): string {
    const id = memberIdOf(attendee.member_mrn);
    return (id ? this.names.get(id) : null) ?? attendee.name ?? attendee.email ?? 'Someone';
  }

  /** Runs one change, then shows the meeting again; a refusal is a toast. */
  private async change(action: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await action();
      toast(done, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private answer(attendee: Attendee, status: string): Promise<void> {
    return this.change(
      () => kit().client.meetings.patchMeetingsByIdAttendeesByAttendeeId({ params: { id: this.meetingId, attendee_id: attendee.id }, body: { status: status as never } }),
      `Your answer: ${ANSWERS[status]}`,
    );
  }

  private async invite(): Promise<void> {
    const picker = this.renderRoot.querySelector<WpkMemberPicker>('#invite');
    const members = picker?.value ?? [];
    for (const member of members) {
      await this.change(() => kit().client.meetings.postMeetingsByIdAttendees({ params: { id: this.meetingId }, body: { member_mrn: memberMrn(member.id) } }), `${member.name} is invited`);
    }
    if (picker) picker.value = [];
  }

  private uninvite(attendee: Attendee): Promise<void> {
    return this.change(() => kit().client.meetings.deleteMeetingsByIdAttendeesByAttendeeId({ params: { id: this.meetingId, attendee_id: attendee.id } }), `${this.nameOf(attendee)} is no longer invited`);
  }

  private async cancel(meeting: Meeting): Promise<void> {
    const sure = await confirmAction({ title: 'Cancel the meeting?', message: `Everyone invited to ${meeting.title} is told it is cancelled.`, confirm_label: 'Cancel meeting', danger: true });
    if (sure) await this.change(() => kit().client.meetings.deleteMeetingsById({ params: { id: this.meetingId } }), `${meeting.title} is cancelled`);
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const meeting = this.meeting;
    if (!meeting) return html`<wa-spinner label="Loading the meeting"></wa-spinner>`;
    const me = kit().member.id;
    const organizer = memberIdOf(meeting.organizer_mrn) === me;
    const live = meeting.status !== 'cancelled';
    const mine = meeting.attendees.find((attendee) => memberIdOf(attendee.member_mrn) === me);
    return html`<h1>${meeting.title}</h1>
      ${live ? nothing : html`<p class="cancelled" role="status">This meeting is cancelled.</p>`}
      <p><wpk-date value=${meeting.starts_at} format="datetime"></wpk-date> to <wpk-date value=${meeting.ends_at} format="datetime"></wpk-date>${meeting.location ? ` · ${meeting.location}` : ''}</p>
      <p class="muted">Organized by ${organizer ? 'you' : (this.names.get(memberIdOf(meeting.organizer_mrn) ?? '') ?? 'a member')}</p>
      ${meeting.call?.join_url && live ? html`<p><a href=${meeting.call.join_url} target="_blank" rel="noopener">Join the call</a></p>` : nothing}
      ${meeting.description ? html`<h2>Agenda</h2><p>${meeting.description}</p>` : nothing}
      ${mine && live
        ? html`<h2>Your answer</h2>
            <div class="actions" role="group" aria-label="Your answer">
              ${OFFERED.map(([status, label]) => html`<wa-button size="small" variant=${mine.status === status ? 'brand' : 'neutral'} aria-pressed=${mine.status === status ? 'true' : 'false'} @click=${() => this.answer(mine, status)}>${label}</wa-button>`)}
            </div>`
        : nothing}
      <h2>Who comes</h2>
      ${meeting.attendees.length
        ? html`<div class="scroll"><table aria-label="Attendees">
            <thead><tr><th scope="col">Attendee</th><th scope="col">Answer</th>${organizer && live ? html`<th scope="col"><span class="wpk-visually-hidden">Actions</span></th>` : nothing}</tr></thead>
            <tbody>${meeting.attendees.map((attendee) => html`<tr>
              <td>${this.nameOf(attendee)}${attendee.member_mrn ? nothing : html` <span class="muted">(guest)</span>`}</td>
              <td>${ANSWERS[attendee.status] ?? attendee.status}</td>
              ${organizer && live ? html`<td><wa-button size="small" appearance="plain" @click=${() => this.uninvite(attendee)}>Remove<span class="wpk-visually-hidden"> ${this.nameOf(attendee)}</span></wa-button></td>` : nothing}
            </tr>`)}</tbody>
          </table></div>`
        : html`<p class="muted">No one invited yet.</p>`}
      ${organizer && live
        ? html`<h2>Invite</h2>
            <wpk-member-picker id="invite" label="Members to invite" multiple></wpk-member-picker>
            <div class="actions">
              <wa-button size="small" @click=${() => this.invite()}>Send invitations</wa-button>
              <wa-button size="small" variant="danger" appearance="outlined" @click=${() => this.cancel(meeting)}>Cancel meeting</wa-button>
            </div>`
        : nothing}`;
  }
}

customElements.define('meetings-meeting', MeetingsMeeting);
