import { LitElement, html, kit, memberMrn, navigate, nothing, runForm, screenStyles, toast, type WpkMemberPicker } from '@wpk/ui';
import { CARD_STYLES, type Call } from '../api.js';

/**
 * `/new`: starts a call hosted by the member (video or audio) with members chosen in the shell's
 * picker, or schedules it when a time is given (the device's time, sent as an instant).
 */
export class CallsStart extends LitElement {
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
    void kit().bridge.title('Start a call');
  }

  private async start(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const members = form.querySelector<WpkMemberPicker>('wpk-member-picker')?.value ?? [];
    const when = String(data.get('scheduled_at') ?? '');
    const body = {
      title: String(data.get('title') ?? '').trim(),
      mode: String(data.get('mode') ?? 'video') as 'video' | 'audio',
      participant_mrns: members.map((member) => memberMrn(member.id)),
      ...(when ? { scheduled_at: new Date(when).toISOString() } : {}),
    };
    await runForm(this, async () => {
      const call = (await kit().client.calls.postCalls({ body })).data as Call;
      toast(call.scheduled_at ? `${call.title} is scheduled` : `${call.title} is ready to join`, 'success');
      await navigate(`/calls/${call.id}`);
    });
  }

  protected override render() {
    return html`<h1>Start a call</h1>
      <form class="fields" aria-label="Start a call" @submit=${(event: SubmitEvent) => this.start(event)}>
        <label for="title">Title</label>
        <input id="title" name="title" maxlength="200" />
        <label for="mode">Kind</label>
        <select id="mode" name="mode"><option value="video">Video</option><option value="audio">Audio only</option></select>
        <label for="scheduled-at">When <span class="muted">(empty: now)</span></label>
        <input id="scheduled-at" name="scheduled_at" type="datetime-local" />
        <wpk-member-picker label="Members invited" multiple></wpk-member-picker>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit" ?disabled=${this.busy}>Start</button>
      </form>`;
  }
}

customElements.define('calls-start', CallsStart);
