import { LitElement, confirmAction, css, errorText, html, kit, nothing, screenStyles, toast } from '@wpk/ui';
import type { Binding, BindableAction, Channel } from '../api.js';

/**
 * `/cards`: event cards by consent. The bindings of catalog actions to channels, and a form to bind
 * one: the action, the channel, the payload fields its cards may show (only those offered), the
 * title and the text with `{field}` placeholders.
 */
export class FeedsCards extends LitElement {
  static override properties = { actions: { state: true }, channels: { state: true }, bindings: { state: true }, action: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`
    section { margin-top: var(--wpk-space-5); }
    form { display: grid; gap: var(--wpk-space-2); max-width: 40rem; }
    form > label { font-weight: 600; margin-top: var(--wpk-space-2); }
    fieldset label { display: flex; gap: var(--wpk-space-2); font-weight: 400; }
    .error { color: var(--wpk-color-danger, #b00020); }
    li { margin-bottom: var(--wpk-space-2); }
  `];
  declare actions: BindableAction[];
  declare channels: Channel[];
  declare bindings: Binding[];
  declare action: string;
  declare error: string;

  constructor() {
    super();
    this.actions = [];
    this.channels = [];
    this.bindings = [];
    this.action = '';
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Event cards');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const client = kit().client.feeds;
      this.actions = (await client.getFeedsBindableActions({})).data;
      this.channels = (await client.getFeedsChannels({ query: { per_page: 100 } })).data;
      this.bindings = (await client.getFeedsBindings({ query: { per_page: 100 } })).data;
      this.action ||= this.actions[0]?.action ?? '';
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async bind(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const fields = data.getAll('fields').map(String);
    try {
      await kit().client.feeds.postFeedsBindings({ body: { action: this.action, channel_id: String(data.get('channel_id')), fields, title: String(data.get('title') ?? '').trim() || null, template: String(data.get('template') ?? '') } as never });
      this.error = '';
      form.reset();
      toast('Binding added', 'success');
      await this.load();
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async unbind(binding: Binding): Promise<void> {
    if (!(await confirmAction({ title: 'Remove this binding?', message: 'No more cards will come from it; the cards it made stay.', confirm_label: 'Remove', danger: true }))) return;
    try {
      await kit().client.feeds.deleteFeedsBindingsByBindingId({ params: { binding_id: binding.id } });
      toast('Binding removed', 'success');
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const offered = this.actions.find((action) => action.action === this.action);
    const labelOf = (action: string) => this.actions.find((one) => one.action === action)?.label ?? action;
    const channelOf = (id: string) => this.channels.find((channel) => channel.id === id)?.name ?? 'a channel';
    return html`<h1>Event cards</h1>
      <p>An event of another app becomes a post in a channel, showing only the fields chosen here.</p>
      <section aria-labelledby="bound"><h2 id="bound">Bindings</h2>
        ${this.bindings.length === 0
          ? html`<p>No binding yet.</p>`
          : html`<ul>${this.bindings.map((binding) => html`<li><strong>${labelOf(binding.action)}</strong> → ${channelOf(binding.channel_id)}: “${binding.template}” (shows ${binding.fields.join(', ')})
              <button type="button" @click=${() => this.unbind(binding)}>Remove<span class="wpk-visually-hidden"> the binding of ${labelOf(binding.action)}</span></button></li>`)}</ul>`}
      </section>
      <section aria-labelledby="add"><h2 id="add">Bind a catalog event to a channel</h2>
        <form @submit=${(event: SubmitEvent) => this.bind(event)}>
          <label for="action">Event</label>
          <select id="action" name="action" @change=${(event: Event) => (this.action = (event.target as HTMLSelectElement).value)}>
            ${this.actions.map((action) => html`<option value=${action.action} ?selected=${action.action === this.action}>${action.label}</option>`)}
          </select>
          <label for="channel">Channel</label>
          <select id="channel" name="channel_id" required>${this.channels.map((channel) => html`<option value=${channel.id}>${channel.name}</option>`)}</select>
          <fieldset><legend>Fields the cards may show</legend>
            ${(offered?.fields ?? []).map((name) => html`<label><input type="checkbox" name="fields" value=${name} />${name}</label>`)}
          </fieldset>
          <label for="title">Title</label>
          <input id="title" name="title" maxlength="200" placeholder="Welcome {name}" />
          <label for="template">Text</label>
          <textarea id="template" name="template" required maxlength="2000" rows="3" placeholder="Please welcome {name}, our new {title}!"></textarea>
          ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
          <div><button type="submit">Bind</button></div>
        </form>
      </section>`;
  }
}

customElements.define('feeds-cards', FeedsCards);
