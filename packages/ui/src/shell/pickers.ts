import { LitElement, css, html, nothing } from 'lit';
import type { PickedMember, SearchHit } from '../bridge/protocol.js';
import { sharedStyles } from '../components/shared-styles.js';
import '../components/wa.js';
import { shellApi, type ShellContext } from './api.js';

type Dialog = HTMLElement & { open: boolean };

/** A picker in a dialog: a filter, a list of choices with checkboxes or one choice, Choose and Cancel. */
abstract class PickerDialog<T extends { id: string }> extends LitElement {
  static override properties = { heading: { state: true }, multiple: { state: true }, choices: { state: true }, chosen: { state: true }, error: { state: true }, loading: { state: true } };
  declare heading: string;
  declare multiple: boolean;
  declare choices: T[];
  declare chosen: Set<string>;
  declare error: string | null;
  declare loading: boolean;
  context: ShellContext | null = null;
  private answer: ((picked: T[]) => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The number of the latest search: an answer to an earlier one, arriving late, is dropped. */
  private searches = 0;

  constructor() {
    super();
    this.heading = '';
    this.multiple = false;
    this.choices = [];
    this.chosen = new Set();
    this.error = null;
    this.loading = false;
  }

  static override styles = [sharedStyles, css`
    ul { list-style: none; padding: 0; margin: var(--wpk-space-3) 0 0; max-height: 50vh; overflow: auto; display: grid; gap: var(--wpk-space-1); }
    label { display: flex; gap: var(--wpk-space-2); align-items: baseline; cursor: pointer; }
  `];

  protected abstract find(query: string): Promise<T[]>;
  protected abstract show(choice: T): unknown;

  /** Opens the dialog; resolves with the choice ([] when cancelled). */
  async pick(options: { title: string; multiple: boolean }): Promise<T[]> {
    this.answer?.([]);
    this.heading = options.title.slice(0, 200);
    this.multiple = options.multiple;
    this.chosen = new Set();
    // A new pick starts from the whole list: what was typed for the last one goes with it.
    clearTimeout(this.timer);
    const filter = this.renderRoot.querySelector('wa-input') as (HTMLElement & { value: string }) | null;
    if (filter) filter.value = '';
    await this.search('');
    (this.renderRoot.querySelector('wa-dialog') as Dialog).open = true;
    return new Promise((resolve) => {
      this.answer = resolve;
    });
  }

  private async search(query: string): Promise<void> {
    const number = ++this.searches;
    this.loading = true;
    try {
      const found = await this.find(query);
      if (number !== this.searches) return;
      this.choices = found;
      this.error = null;
    } catch (error) {
      if (number !== this.searches) return;
      // The list no longer answers what was typed: it goes, and the error says why.
      this.choices = [];
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (number === this.searches) this.loading = false;
    }
  }

  private typed(event: Event): void {
    clearTimeout(this.timer);
    const query = String((event.target as HTMLInputElement).value ?? '');
    this.timer = setTimeout(() => void this.search(query), 200);
  }

  private toggle(id: string, on: boolean): void {
    const next = this.multiple ? new Set(this.chosen) : new Set<string>();
    if (on) next.add(id);
    else next.delete(id);
    this.chosen = next;
  }

  private finish(picked: T[]): void {
    (this.renderRoot.querySelector('wa-dialog') as Dialog).open = false;
    const answer = this.answer;
    this.answer = null;
    answer?.(picked);
  }

  protected override render() {
    const name = `pick-${this.localName}`;
    return html`<wa-dialog label=${this.heading} @wa-after-hide=${() => this.finish([])}>
      <wa-input label="Search" type="search" @input=${this.typed}></wa-input>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <ul aria-busy=${this.loading ? 'true' : 'false'}>
        ${this.choices.map(
          (choice) => html`<li><label><input type=${this.multiple ? 'checkbox' : 'radio'} name=${name} .checked=${this.chosen.has(choice.id)} @change=${(event: Event) => this.toggle(choice.id, (event.target as HTMLInputElement).checked)} />${this.show(choice)}</label></li>`,
        )}
      </ul>
      ${!this.loading && this.choices.length === 0 ? html`<p class="muted">Nothing found.</p>` : nothing}
      <wa-button slot="footer" appearance="outlined" @click=${() => this.finish([])}>Cancel</wa-button>
      <wa-button slot="footer" variant="brand" ?disabled=${this.chosen.size === 0} @click=${() => this.finish(this.choices.filter((choice) => this.chosen.has(choice.id)))}>Choose</wa-button>
    </wa-dialog>`;
  }
}

/** The shell's member picker: the joined members of the workspace (`GET /members`), filtered by name or address. */
export class WpkMemberPickerDialog extends PickerDialog<PickedMember> {
  protected async find(query: string): Promise<PickedMember[]> {
    const answer = await shellApi<{ data: PickedMember[] }>(this.context!, 'GET', '/members?state=joined&per_page=100');
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return answer.data
      .map(({ id, name, email }) => ({ id, name, email }))
      .filter((member) => words.every((word) => member.name.toLowerCase().includes(word) || member.email.toLowerCase().includes(word)));
  }

  protected show(member: PickedMember) {
    return html`<span>${member.name} <span class="muted">${member.email}</span></span>`;
  }
}

/** The shell's file picker: the Files app's search (`GET /search?app=files`), as the member may see it. */
export class WpkFilePickerDialog extends PickerDialog<SearchHit> {
  protected async find(query: string): Promise<SearchHit[]> {
    const answer = await shellApi<{ data: SearchHit[] }>(this.context!, 'GET', `/search?${new URLSearchParams({ app: 'files', q: query, types: 'file', per_page: '50' })}`);
    // A result's id is its badge and may be empty: the url names the file.
    return answer.data.map((hit) => ({ ...hit, id: hit.url }));
  }

  protected show(file: SearchHit) {
    return html`<span>${file.title} <span class="muted">${file.subtitle}</span></span>`;
  }
}

customElements.define('wpk-member-picker-dialog', WpkMemberPickerDialog);
customElements.define('wpk-file-picker-dialog', WpkFilePickerDialog);
