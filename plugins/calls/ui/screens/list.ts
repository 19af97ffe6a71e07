import { LitElement, appLink, errorText, html, kit, nothing, screenStyles } from '@wpk/ui';
import { CARD_STYLES, STATUSES, type Call } from '../api.js';

/** `/`: the calls the member takes part in, newest first. */
export class CallsList extends LitElement {
  static override properties = { calls: { state: true }, error: { state: true } };
  static override styles = [screenStyles, CARD_STYLES];
  declare calls: Call[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.calls = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('My calls');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.calls = (await kit().client.calls.getCalls({ query: { per_page: 100 } })).data as Call[];
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    if (this.error) return html`<h1>My calls</h1><p class="error" role="alert">${this.error}</p>`;
    if (!this.calls) return html`<wa-spinner label="Loading the calls"></wa-spinner>`;
    return html`<h1>My calls</h1>
      ${this.calls.length
        ? html`<ul class="cards" aria-label="My calls">${this.calls.map((call) => html`<li>
            ${appLink(`/calls/${call.id}`, html`<strong>${call.title}</strong>`)}
            <div>${STATUSES[call.status] ?? call.status} · ${call.mode === 'video' ? 'Video' : 'Audio'}${call.scheduled_at ? html` · <wpk-date value=${call.scheduled_at} format="datetime"></wpk-date>` : nothing}</div>
            <div class="muted">${call.participants.length} ${call.participants.length === 1 ? 'participant' : 'participants'}${call.participants.filter((row) => row.in_session).length ? ` · ${call.participants.filter((row) => row.in_session).length} in the call now` : ''}</div>
          </li>`)}</ul>`
        : html`<p class="muted">No call yet. ${appLink('/new', 'Start one')}.</p>`}`;
  }
}

customElements.define('calls-list', CallsList);
