import { LitElement, css, errorText, html, kit, navigate, nothing, screenStyles, type WpkMemberPicker } from '@wpk/ui';
import { store, type Chat } from '../api.js';

/**
 * `/new`: start a chat with members chosen in the shell's member picker (one: a direct chat, the
 * existing one if there is one; more: a group, optionally named), or a channel by its name.
 */
export class ChatNew extends LitElement {
  static override properties = { error: { state: true }, channelError: { state: true } };
  declare error: string | null;
  declare channelError: string | null;

  static override styles = [screenStyles, css`
    form { display: grid; gap: var(--wpk-space-2); max-width: 32rem; margin-bottom: var(--wpk-space-5); }
    input { font: inherit; color: var(--wpk-color-text); background: var(--wpk-color-surface); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-2); }
    button { justify-self: start; font: inherit; border-radius: var(--wpk-radius-m); border: 1px solid var(--wpk-color-brand-fill); background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); padding: var(--wpk-space-2) var(--wpk-space-3); cursor: pointer; }
    input:focus-visible, button:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 1px; }
  `];

  constructor() {
    super();
    this.error = null;
    this.channelError = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('New chat');
  }

  private async start(event: Event, channel: boolean): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    const members = channel ? [] : (form.querySelector<WpkMemberPicker>('wpk-member-picker')?.value ?? []);
    if (!channel && members.length === 0) {
      this.error = 'Choose at least one member to chat with.';
      return;
    }
    const type = channel ? 'channel' : members.length === 1 ? 'direct' : 'group';
    try {
      const chat = (await kit().client.chat.postChats({ body: { type, ...(name && type !== 'direct' ? { name } : {}), participant_mrns: members.map((member) => `mrn:account:member:${member.id}`) } })).data as Chat;
      await store.reload();
      navigate(`/chats/${chat.id}`);
    } catch (error) {
      if (channel) this.channelError = errorText(error);
      else this.error = errorText(error);
    }
  }

  protected override render() {
    return html`<h1>New chat</h1>
      <form aria-labelledby="with" @submit=${(event: Event) => this.start(event, false)}>
        <h2 id="with">Chat with members</h2>
        <wpk-member-picker label="Members" multiple></wpk-member-picker>
        <label for="group-name">Group name (for three or more)</label>
        <input id="group-name" name="name" maxlength="200" />
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <button type="submit">Start chat</button>
      </form>
      <form aria-labelledby="channel" @submit=${(event: Event) => this.start(event, true)}>
        <h2 id="channel">New channel</h2>
        <label for="channel-name">Channel name</label>
        <input id="channel-name" name="name" required maxlength="200" />
        ${this.channelError ? html`<p class="error" role="alert">${this.channelError}</p>` : nothing}
        <button type="submit">Create channel</button>
      </form>`;
  }
}

customElements.define('chat-new', ChatNew);
