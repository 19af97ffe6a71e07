import { LitElement, html, kit, memberMrn, navigate, nothing, runForm, screenStyles, toast, type WpkMemberPicker } from '@wpk/ui';
import { CARD_STYLES, type Meeting } from '../api.js';

/** A `datetime-local` value (the device's time) as an ISO instant; '' when empty. */
const instantOf = (value: FormDataEntryValue | null): string => (value ? new Date(String(value)).toISOString() : '');

/** Guests' addresses from the text box: one per line or separated by commas, blanks ignored. */
const guestsOf = (value: FormDataEntryValue | null) =>
  String(value ?? '')
    .split(/[\n,]/)
    .map((address) => address.trim())
    .filter(Boolean)
    .map((email) => ({ email }));

/**
 * `/new`: schedules a meeting organized by the member: title, start and end (in the device's
 * time), place, agenda, members chosen in the shell's member picker, and guests by address. Each
 * one with an address is mailed the invitation; the server's refusal of a field shows with it.
 */
export class MeetingsSchedule extends LitElement {
  static override properties = { error: { state: true }, busy: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare error: string | null;
  declare busy: boolean;

  constructor() {
    super();
    this.error = null;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Schedule a meeting');
  }

  private async schedule(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const members = form.querySelector<WpkMemberPicker>('wpk-member-picker')?.value ?? [];
    const location = String(data.get('location') ?? '').trim();
    const description = String(data.get('description') ?? '').trim();
    const body = {
      title: String(data.get('title') ?? '').trim(),
      starts_at: instantOf(data.get('starts_at')),
      ends_at: instantOf(data.get('ends_at')),
      ...(location ? { location } : {}),
      ...(description ? { description } : {}),
      attendees: [...members.map((member) => ({ member_mrn: memberMrn(member.id) })), ...guestsOf(data.get('guests'))],
    };
    await runForm(this, async () => {
      const meeting = (await kit().client.meetings.postMeetings({ body })).data as Meeting;
      toast(`${meeting.title} is scheduled`, 'success');
      await navigate(`/meetings/${meeting.id}`);
    });
  }

  protected override render() {
    return html`<h1>Schedule a meeting</h1>
      <form class="fields" aria-label="Schedule a meeting" @submit=${(event: SubmitEvent) => this.schedule(event)}>
        <label for="title">Title</label>
        <input id="title" name="title" required maxlength="200" />
        <label for="starts-at">Starts</label>
        <input id="starts-at" name="starts_at" type="datetime-local" required />
        <label for="ends-at">Ends</label>
        <input id="ends-at" name="ends_at" type="datetime-local" required />
        <label for="location">Where</label>
        <input id="location" name="location" maxlength="500" />
        <label for="description">Agenda</label>
        <textarea id="description" name="description" rows="4" maxlength="5000"></textarea>
        <wpk-member-picker label="Members invited" multiple></wpk-member-picker>
        <label for="guests">Guests' e-mail addresses (one per line)</label>
        <textarea id="guests" name="guests" rows="2"></textarea>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit" ?disabled=${this.busy}>Schedule</button>
      </form>`;
  }
}

customElements.define('meetings-schedule', MeetingsSchedule);
