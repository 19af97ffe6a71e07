import type { Editor } from '@tiptap/core';
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';

/** Who a mention names. */
export interface MentionedMember {
  id: string;
  name: string;
}

/** Members whose name or address starts with what was typed after `@` (the app asks the shell: `kit().bridge.findMembers(q)`). */
export type FindMembers = (query: string) => Promise<MentionedMember[]>;

/** `@` at the start of a line or after a space or an opening bracket, then the start of a name: a word, and perhaps the start of a second after one space. */
const TRIGGER = /(?:^|[\s([{])@((?:[\p{L}\p{N}._'-]{1,40}(?: [\p{L}\p{N}._'-]{0,40})?)?)$/u;
/** How many members the list shows. */
const SHOWN = 6;
let lists = 0;

/**
 * Typing `@` and the start of a name in an editor of the kit lists the members it may mention,
 * as the WAI-ARIA combobox pattern has it: the text box keeps the focus and names the list
 * (`aria-controls`) and its active option (`aria-activedescendant`); ↓/↑ move, Enter or Tab
 * inserts the mention, Escape closes the list until the next `@`. A click on a name inserts it too.
 * Shared by `<wpk-rich-text-editor>` and `<wpk-collab-editor>`, which call `track` after each
 * transaction, `keydown` from the view's key handler, and render `list()` under the text.
 */
export class MentionSuggestions implements ReactiveController {
  readonly listId = `wpk-mentions-${++lists}`;
  /** The members listed now (empty: the list is closed). */
  members: MentionedMember[] = [];
  active = 0;
  private query: string | null = null;
  private range: { from: number; to: number } | null = null;
  private dismissedAt: number | null = null;
  private asked = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly find: () => FindMembers | null,
    private readonly editor: () => Editor | null,
  ) {
    host.addController(this);
  }

  /** An editor taken out of the page forgets its list and any answer still on its way, so it comes back closed. */
  hostDisconnected(): void {
    this.close();
  }

  /** The text box's attributes for the combobox pattern; set on the ProseMirror element. */
  private aria(): void {
    const dom = this.editor()?.view.dom;
    if (!dom) return;
    if (this.find()) dom.setAttribute('aria-autocomplete', 'list');
    if (this.members.length > 0) {
      dom.setAttribute('aria-controls', this.listId);
      dom.setAttribute('aria-activedescendant', `${this.listId}-${this.active}`);
    } else {
      dom.removeAttribute('aria-controls');
      dom.removeAttribute('aria-activedescendant');
    }
  }

  /** After each transaction: is the caret right after `@` and the start of a name? */
  track(editor: Editor): void {
    const find = this.find();
    const { selection } = editor.state;
    let match: { query: string; from: number; to: number } | null = null;
    if (find && selection.empty && editor.isEditable && editor.isFocused) {
      const { $from } = selection;
      const before = $from.parent.textBetween(Math.max(0, $from.parentOffset - 60), $from.parentOffset, undefined, '\ufffc');
      const found = TRIGGER.exec(before);
      if (found) match = { query: found[1], from: $from.pos - found[1].length - 1, to: $from.pos };
    }
    if (!match || match.from === this.dismissedAt) {
      if (this.query !== null) this.close();
      return;
    }
    this.dismissedAt = null;
    this.range = { from: match.from, to: match.to };
    if (match.query !== this.query) {
      this.query = match.query;
      void this.lookup(find!, match.query);
    }
  }

  private async lookup(find: FindMembers, query: string): Promise<void> {
    const ask = ++this.asked;
    let members: MentionedMember[];
    try {
      members = (await find(query)).slice(0, SHOWN);
    } catch {
      members = [];
    }
    if (ask !== this.asked || this.query !== query) return;
    this.members = members;
    this.active = 0;
    this.changed();
  }

  private changed(): void {
    this.aria();
    this.host.requestUpdate();
  }

  /** The view's key handler: true when the list used the key. */
  keydown(event: KeyboardEvent): boolean {
    const count = this.members.length;
    if (count === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
      this.changed();
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      this.choose(this.members[this.active]);
      return true;
    }
    if (event.key === 'Escape') {
      this.dismissedAt = this.range?.from ?? null;
      this.close();
      return true;
    }
    return false;
  }

  /** Replaces `@` and what was typed after it with a mention of `member`, then a space. */
  choose(member: MentionedMember): void {
    const editor = this.editor();
    const range = this.range;
    this.close();
    if (!editor || !range) return;
    editor.chain().focus().insertContentAt(range, [{ type: 'mention', attrs: { id: member.id, label: member.name } }, { type: 'text', text: ' ' }]).run();
  }

  private close(): void {
    this.query = null;
    this.range = null;
    this.members = [];
    this.asked++;
    this.changed();
  }

  /** The list of members, under the text while it is open. */
  list() {
    if (this.members.length === 0) return nothing;
    return html`<ul class="wpk-mentions" role="listbox" id=${this.listId} aria-label="Members to mention">
      ${this.members.map(
        (member, index) =>
          html`<li role="option" id=${`${this.listId}-${index}`} aria-selected=${index === this.active ? 'true' : 'false'} @mousedown=${(event: Event) => event.preventDefault()} @click=${() => this.choose(member)}>${member.name}</li>`,
      )}
    </ul>`;
  }
}
