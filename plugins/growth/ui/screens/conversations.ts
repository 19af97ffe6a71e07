import { LitElement, choiceField, css, errorText, html, kit, screenStyles, sendSchemaForm, toast, type FormSchema } from '@wpk/ui';
import { CARD_STYLES, allPeople, nameOfMember, type FeedbackRequest, type OneOnOne, type Person, type Praise } from '../api.js';

/** The lines of a text area, trimmed, empty ones dropped. */
const lines = (value: unknown): string[] => String(value ?? '').split('\n').map((line) => line.trim()).filter(Boolean);

/** `/conversations`: praise given and received, the member's 1:1s (agenda, notes, action items) and feedback requests, each with its form. */
export class GrowthConversations extends LitElement {
  static override properties = { people: { state: true }, praise: { state: true }, meetings: { state: true }, requests: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES, css`ul.items { list-style: none; padding: 0; } ul.items input { margin-inline-end: var(--wpk-space-2); }`];
  declare people: Person[];
  declare praise: Praise[];
  declare meetings: OneOnOne[];
  declare requests: FeedbackRequest[];
  declare error: string | null;

  constructor() {
    super();
    this.people = [];
    this.praise = [];
    this.meetings = [];
    this.requests = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Conversations');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const { growth } = kit().client;
      const [people, praise, meetings, requests] = await Promise.all([
        allPeople(),
        growth.getGrowthPraise({ query: { per_page: 50 } }),
        growth.getGrowthOneOnOnes({ query: { per_page: 50 } }),
        growth.getGrowthFeedbackRequests({ query: { per_page: 50 } }),
      ]);
      this.people = people;
      this.praise = praise.data as Praise[];
      this.meetings = meetings.data as OneOnOne[];
      this.requests = requests.data as FeedbackRequest[];
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** A choice of the other members Growth knows (workers linked to a member). */
  private memberField(title: string) {
    const others = this.people.filter((person) => person.member_id && person.member_id !== kit().member.id);
    return choiceField(title, others.map((person) => ({ id: person.member_id!, name: person.name })));
  }

  private praiseSchema(): FormSchema {
    return { required: ['receiver_id', 'message'], properties: { receiver_id: this.memberField('Praise whom'), message: { type: 'string', title: 'Message', 'x-widget': 'textarea', minLength: 1, maxLength: 2000 } } };
  }

  private meetingSchema(): FormSchema {
    return {
      required: ['attendee_id', 'scheduled_on'],
      properties: {
        attendee_id: this.memberField('With'),
        scheduled_on: { type: 'string', title: 'On', format: 'date' },
        agenda: { type: 'string', title: 'Agenda, one item per line', 'x-widget': 'textarea' },
        notes: { type: 'string', title: 'Notes', 'x-widget': 'textarea', maxLength: 20000 },
        action_items: { type: 'string', title: 'Action items, one per line', 'x-widget': 'textarea' },
      },
    };
  }

  private feedbackSchema(): FormSchema {
    return { required: ['responder_id', 'question'], properties: { responder_id: this.memberField('Ask whom'), question: { type: 'string', title: 'Question', 'x-widget': 'textarea', minLength: 1, maxLength: 2000 }, due_on: { type: 'string', title: 'Answer by', format: 'date' } } };
  }

  private send(event: CustomEvent<Record<string, unknown>>, post: () => Promise<unknown>, done: string): Promise<void> {
    return sendSchemaForm(
      event,
      async () => {
        await post();
        toast(done, 'success');
      },
      () => this.load(),
    );
  }

  private notesSchema(row: OneOnOne): FormSchema {
    return { properties: { notes: { type: 'string', title: `Notes of ${row.scheduled_on}`, 'x-widget': 'textarea', maxLength: 20000 } } };
  }

  private saveNotes(row: OneOnOne, event: CustomEvent<Record<string, unknown>>) {
    const notes = String(event.detail.notes ?? '');
    return this.send(event, () => kit().client.growth.patchGrowthOneOnOnesByOneOnOneId({ params: { one_on_one_id: row.id }, body: { notes } }), 'Notes saved');
  }

  /** Ticks (or unticks) one action item: the list is sent whole. */
  private async tick(row: OneOnOne, index: number, done: boolean): Promise<void> {
    const action_items = row.action_items.map((item, at) => ({ text: item.text, done: at === index ? done : item.done }));
    try {
      await kit().client.growth.patchGrowthOneOnOnesByOneOnOneId({ params: { one_on_one_id: row.id }, body: { action_items } });
      toast(`${row.action_items[index].text}: ${done ? 'done' : 'not done'}`, 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
      await this.load();
    }
  }

  private givePraise(event: CustomEvent<Record<string, unknown>>) {
    const { receiver_id, message } = event.detail as { receiver_id: string; message: string };
    return this.send(event, () => kit().client.growth.postGrowthPraise({ body: { receiver_id, message } }), `Praise sent to ${nameOfMember(this.people, receiver_id)}`);
  }

  private schedule(event: CustomEvent<Record<string, unknown>>) {
    const detail = event.detail as { attendee_id: string; scheduled_on: string; agenda?: string; notes?: string; action_items?: string };
    const body = { attendee_id: detail.attendee_id, scheduled_on: detail.scheduled_on, agenda: lines(detail.agenda), notes: detail.notes ?? '', action_items: lines(detail.action_items).map((text) => ({ text })) };
    return this.send(event, () => kit().client.growth.postGrowthOneOnOnes({ body }), `1:1 with ${nameOfMember(this.people, detail.attendee_id)} scheduled`);
  }

  private ask(event: CustomEvent<Record<string, unknown>>) {
    const detail = event.detail as { responder_id: string; question: string; due_on?: string };
    return this.send(event, () => kit().client.growth.postGrowthFeedbackRequests({ body: { responder_id: detail.responder_id, question: detail.question, ...(detail.due_on ? { due_on: detail.due_on } : {}) } }), `Feedback asked of ${nameOfMember(this.people, detail.responder_id)}`);
  }

  protected override render() {
    const name = (id: string) => (id === kit().member.id ? 'You' : nameOfMember(this.people, id));
    return html`<h1>Conversations</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <h2>Praise</h2>
      ${this.praise.length
        ? html`<ul class="cards" aria-label="Praise">${this.praise.map((row) => html`<li><strong>${name(row.giver_id)} → ${name(row.receiver_id)}</strong><div>${row.message}</div></li>`)}</ul>`
        : html`<p class="muted">No praise yet.</p>`}
      <wpk-schema-form .schema=${this.praiseSchema()} .value=${{}} submit-label="Give praise" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.givePraise(event)}></wpk-schema-form>
      <h2>1:1s</h2>
      ${this.meetings.length
        ? html`<ul class="cards" aria-label="1:1s">${this.meetings.map((row) => html`<li>
            <strong>${row.scheduled_on} · ${name(row.organizer_id)} and ${name(row.attendee_id)}</strong>
            ${row.agenda.length ? html`<div>Agenda</div><ul aria-label="Agenda of ${row.scheduled_on}">${row.agenda.map((item) => html`<li>${item}</li>`)}</ul>` : ''}
            ${row.action_items.length
              ? html`<div>Action items</div><ul class="items" aria-label="Action items of ${row.scheduled_on}">${row.action_items.map((item, index) => html`<li><label><input type="checkbox" .checked=${item.done} @change=${(event: Event) => this.tick(row, index, (event.target as HTMLInputElement).checked)} /> ${item.text}</label></li>`)}</ul>`
              : ''}
            <wpk-schema-form .schema=${this.notesSchema(row)} .value=${{ notes: row.notes }} submit-label="Save the notes of ${row.scheduled_on}" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.saveNotes(row, event)}></wpk-schema-form>
          </li>`)}</ul>`
        : html`<p class="muted">No 1:1 yet.</p>`}
      <wpk-schema-form .schema=${this.meetingSchema()} .value=${{}} submit-label="Schedule 1:1" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.schedule(event)}></wpk-schema-form>
      <h2>Feedback requests</h2>
      ${this.requests.length
        ? html`<ul class="cards" aria-label="Feedback requests">${this.requests.map((row) => html`<li><strong>${name(row.requester_id)} asked ${name(row.responder_id)}</strong><div>${row.question}</div>${row.due_on ? html`<div class="muted">by ${row.due_on}</div>` : ''}</li>`)}</ul>`
        : html`<p class="muted">No feedback request yet.</p>`}
      <wpk-schema-form .schema=${this.feedbackSchema()} .value=${{}} submit-label="Ask for feedback" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.ask(event)}></wpk-schema-form>`;
  }
}

customElements.define('growth-conversations', GrowthConversations);
