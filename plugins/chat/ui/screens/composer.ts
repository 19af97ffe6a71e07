import { LitElement, css, html, nothing, sharedStyles } from '@wpk/ui';
import { wireText } from '../api.js';

/** Someone the composer can mention. */
export interface Person {
  id: string;
  name: string;
}

/** How many names the mention list offers at once. */
const SUGGESTIONS = 6;

/**
 * `<chat-composer>`: a message's text with mentions. Typing `@` and the start of a participant's
 * name offers the matching names (a combobox: ↑ ↓ move, Enter or Tab takes one, Escape closes);
 * a name taken reads `@Name` and goes to the API as `<@member_id>`. Enter sends (`chat-send`,
 * `detail.body`); every keystroke that changes the text fires `chat-typing`.
 */
export class ChatComposer extends LitElement {
  static override properties = {
    label: { type: String },
    submitLabel: { attribute: 'submit-label' },
    value: { type: String },
    people: { attribute: false },
    cancellable: { type: Boolean },
    query: { state: true },
    active: { state: true },
  };
  declare label: string;
  declare submitLabel: string;
  declare value: string;
  declare people: Person[];
  declare cancellable: boolean;
  declare query: string | null;
  declare active: number;

  static override styles = [sharedStyles, css`
    :host { display: block; position: relative; }
    form { display: flex; gap: var(--wpk-space-2); align-items: flex-end; }
    .field { flex: 1; min-width: 0; }
    label { display: block; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
    input { width: 100%; box-sizing: border-box; font: inherit; color: var(--wpk-color-text); background: var(--wpk-color-surface); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-2); }
    input:focus-visible, button:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 1px; }
    button { font: inherit; border-radius: var(--wpk-radius-m); border: 1px solid var(--wpk-color-border-strong); background: var(--wpk-color-surface-raised); color: var(--wpk-color-text); padding: var(--wpk-space-2) var(--wpk-space-3); cursor: pointer; }
    button.primary { background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); border-color: var(--wpk-color-brand-fill); }
    ul { position: absolute; bottom: 100%; left: 0; z-index: 2; list-style: none; margin: 0 0 var(--wpk-space-1); padding: var(--wpk-space-1); min-width: 14rem; background: var(--wpk-color-surface-raised); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-m); box-shadow: var(--wpk-shadow-raised); }
    li { padding: var(--wpk-space-1) var(--wpk-space-2); border-radius: var(--wpk-radius-s); cursor: pointer; }
    li[aria-selected='true'] { background: var(--wpk-color-brand-quiet); }
  `];

  constructor() {
    super();
    this.label = 'Message';
    this.submitLabel = 'Send';
    this.value = '';
    this.people = [];
    this.cancellable = false;
    this.query = null;
    this.active = 0;
  }

  private get input(): HTMLInputElement {
    return this.renderRoot.querySelector('input')!;
  }

  override focus(): void {
    this.input?.focus();
  }

  /** The names matching what follows the `@` before the caret. */
  private suggestions(): Person[] {
    if (this.query === null) return [];
    const query = this.query.toLowerCase();
    return this.people.filter((person) => person.name.toLowerCase().split(/\s+/).some((word) => word.startsWith(query)) || person.name.toLowerCase().startsWith(query)).slice(0, SUGGESTIONS);
  }

  private changed(): void {
    const input = this.input;
    this.value = input.value;
    const before = input.value.slice(0, input.selectionStart ?? input.value.length);
    const match = /(?:^|\s)@([^\s@]{0,30})$/.exec(before);
    this.query = match ? match[1] : null;
    this.active = 0;
    this.dispatchEvent(new Event('chat-typing', { bubbles: true, composed: true }));
  }

  private take(person: Person): void {
    const input = this.input;
    const caret = input.selectionStart ?? input.value.length;
    const before = input.value.slice(0, caret).replace(/@[^\s@]*$/, `@${person.name} `);
    input.value = before + input.value.slice(caret);
    this.value = input.value;
    input.setSelectionRange(before.length, before.length);
    this.query = null;
    input.focus();
  }

  private key(event: KeyboardEvent): void {
    const matches = this.suggestions();
    if (matches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        this.active = (this.active + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length;
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        this.take(matches[this.active] ?? matches[0]);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        this.query = null;
        return;
      }
    }
    if (event.key === 'Escape' && this.cancellable) this.dispatchEvent(new Event('chat-cancel', { bubbles: true, composed: true }));
  }

  private submit(event: Event): void {
    event.preventDefault();
    const text = this.input.value;
    if (!text.trim()) return;
    this.dispatchEvent(new CustomEvent('chat-send', { detail: { body: wireText(text, this.people), text }, bubbles: true, composed: true }));
    if (!this.cancellable) {
      this.input.value = '';
      this.value = '';
    }
    this.query = null;
  }

  protected override render() {
    const matches = this.suggestions();
    const open = matches.length > 0;
    return html`<form @submit=${(event: Event) => this.submit(event)}>
      <div class="field">
        <label for="text">${this.label}</label>
        <input id="text" type="text" autocomplete="off" role="combobox" aria-autocomplete="list" aria-expanded=${open ? 'true' : 'false'} aria-controls="mentions"
          aria-activedescendant=${open ? `mention-${this.active}` : nothing} .value=${this.value} maxlength="4000"
          @input=${() => this.changed()} @keydown=${(event: KeyboardEvent) => this.key(event)} @blur=${() => setTimeout(() => (this.query = null), 150)} />
      </div>
      <button class="primary" type="submit">${this.submitLabel}</button>
      ${this.cancellable ? html`<button type="button" @click=${() => this.dispatchEvent(new Event('chat-cancel', { bubbles: true, composed: true }))}>Cancel</button>` : nothing}
    </form>
    <ul id="mentions" role="listbox" aria-label="Mention someone" ?hidden=${!open}>
      ${matches.map((person, index) => html`<li id="mention-${index}" role="option" aria-selected=${index === this.active ? 'true' : 'false'}
        @mousedown=${(event: Event) => event.preventDefault()} @click=${() => this.take(person)}>${person.name}</li>`)}
    </ul>`;
  }
}

customElements.define('chat-composer', ChatComposer);
