import { LitElement, confirmAction, css, errorText, html, kit, screenStyles, toast, type components } from '@wpk/ui';

type Field = components['schemas']['TablesField'];
type View = components['schemas']['TablesView'];
type Filter = { field_id: string; op: string; value?: unknown };
type Sort = { field_id: string; direction?: 'asc' | 'desc' };
type Config = { filters?: Filter[]; sorts?: Sort[]; hidden_fields?: string[] } & Record<string, unknown>;

/** The filter operators as a person reads them (the API's `op`s); `empty` and `not_empty` take no value. */
const OPERATORS: Array<[string, string]> = [
  ['eq', 'is'], ['neq', 'is not'], ['contains', 'contains'], ['not_contains', 'does not contain'],
  ['gt', 'is greater than'], ['gte', 'is at least'], ['lt', 'is less than'], ['lte', 'is at most'], ['empty', 'is empty'], ['not_empty', 'is not empty'],
];
const NO_VALUE = new Set(['empty', 'not_empty']);
const opLabel = (op: string) => OPERATORS.find(([value]) => value === op)?.[1] ?? op;

/** Whose a view is, as the menu and the views' bar show it. */
export const scopeOf = (view: View) => (view.personal ? 'Personal view' : 'Shared view');

/**
 * The menu of the view shown, next to its name (as in Airtable and NocoDB): whether it is shared or
 * personal, and a disclosure with Rename, "Filter, sort and hide fields" (its saved filters, sort
 * and hidden fields, changed together) and Delete (after the shell's confirmation). A change is
 * `PATCH /tables/views/{view_id}` and fires `view-changed` with the view as answered; a deletion
 * fires `view-deleted`. A refusal (a shared view needs the creator role) is a toast.
 */
export class TablesViewMenu extends LitElement {
  static override properties = { view: { attribute: false }, fields: { attribute: false }, open: { state: true }, mode: { state: true }, filters: { state: true }, newOp: { state: true } };
  static override styles = [
    screenStyles,
    css`
      .head { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.5rem 0; }
      .head h2 { margin: 0; overflow-wrap: anywhere; }
      .badge { border: 1px solid var(--wa-color-neutral-border-normal, #a1a1aa); border-radius: 999px; padding: 0 0.5rem; font-size: 0.875rem; }
      ul.actions[hidden] { display: none; }
      ul.actions { list-style: none; margin: 0.25rem 0; padding: 0.25rem; display: flex; flex-wrap: wrap; gap: 0.5rem; border: 1px solid var(--wa-color-neutral-border-quiet, #d4d4d8); border-radius: 0.375rem; }
      form { display: flex; flex-direction: column; gap: 0.75rem; margin: 0.5rem 0 1rem; max-width: 40rem; }
      fieldset { border: 1px solid var(--wa-color-neutral-border-quiet, #d4d4d8); border-radius: 0.375rem; display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
      fieldset ul { list-style: none; margin: 0; padding: 0; width: 100%; }
      fieldset li { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 0.25rem; overflow-wrap: anywhere; }
      .control { display: flex; flex-direction: column; gap: 0.25rem; }
      .buttons { display: flex; gap: 0.5rem; }
      input[type='text'] { font: inherit; max-width: 100%; box-sizing: border-box; }
    `,
  ];
  declare view: View;
  declare fields: Field[];
  declare open: boolean;
  /** What the menu shows below it: nothing, the rename form or the settings form. */
  declare mode: 'none' | 'rename' | 'settings';
  /** The settings form's filters while it is open (saved with the form). */
  declare filters: Filter[];
  /** The operator chosen for the filter being added (no value for empty / not empty). */
  declare newOp: string;

  constructor() {
    super();
    this.fields = [];
    this.open = false;
    this.mode = 'none';
    this.filters = [];
    this.newOp = 'eq';
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    const before = changed.get('view') as View | undefined;
    if (changed.has('view') && before && before.id !== this.view.id) {
      this.open = false;
      this.mode = 'none';
    }
  }

  private config(): Config {
    return this.view.config as Config;
  }

  private show(mode: 'rename' | 'settings'): void {
    this.open = false;
    this.mode = mode;
    if (mode === 'settings') this.filters = [...(this.config().filters ?? [])];
  }

  private async change(body: { name?: string; config?: Config }, done: string): Promise<void> {
    try {
      const changed = (await kit().client.tables.patchTablesViewsByViewId({ params: { view_id: this.view.id }, body: body as never })).data as View;
      this.mode = 'none';
      toast(done, 'success');
      this.dispatchEvent(new CustomEvent<View>('view-changed', { detail: changed, bubbles: true, composed: true }));
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private rename(event: SubmitEvent): void {
    event.preventDefault();
    const name = String(new FormData(event.target as HTMLFormElement).get('name') ?? '').trim();
    void this.change({ name }, `View renamed ${name}`);
  }

  private async deleteView(): Promise<void> {
    this.open = false;
    const message = this.view.personal ? 'Only your personal view goes; the records stay.' : 'Everyone loses this shared view; the records stay.';
    if (!(await confirmAction({ title: `Delete view ${this.view.name}?`, message, confirm_label: 'Delete', danger: true }))) return;
    try {
      await kit().client.tables.deleteTablesViewsByViewId({ params: { view_id: this.view.id } });
      toast(`View ${this.view.name} deleted`, 'success');
      this.dispatchEvent(new CustomEvent<string>('view-deleted', { detail: this.view.id, bubbles: true, composed: true }));
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private addFilter(): void {
    const root = this.renderRoot as ShadowRoot;
    const field = (root.getElementById('filter-field') as HTMLSelectElement).value;
    const value = (root.getElementById('filter-value') as HTMLInputElement | null)?.value.trim() ?? '';
    const kind = this.fields.find((one) => one.id === field)?.type;
    const typed = kind === 'number' && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : kind === 'checkbox' ? value.toLowerCase() === 'yes' || value === 'true' : value;
    this.filters = [...this.filters, NO_VALUE.has(this.newOp) ? { field_id: field, op: this.newOp } : { field_id: field, op: this.newOp, value: typed }];
  }

  private save(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const hidden = this.fields.filter((field) => data.get(`hide-${field.id}`) !== null).map((field) => field.id);
    const sortBy = String(data.get('sort') ?? '');
    const sorts: Sort[] = sortBy ? [{ field_id: sortBy, direction: data.get('direction') === 'desc' ? 'desc' : 'asc' }] : [];
    void this.change({ config: { ...this.config(), filters: this.filters, sorts, hidden_fields: hidden } }, `View ${this.view.name} saved`);
  }

  private fieldName(id: string): string {
    return this.fields.find((field) => field.id === id)?.name ?? 'a deleted field';
  }

  private settings() {
    const config = this.config();
    const sort = config.sorts?.[0];
    return html`<form aria-label=${`Filter, sort and hide fields of ${this.view.name}`} @submit=${(event: SubmitEvent) => this.save(event)}>
      <fieldset><legend>Filters</legend>
        <ul aria-label="Filters of the view">${this.filters.map((filter, index) => {
          const text = `${this.fieldName(filter.field_id)} ${opLabel(filter.op)}${NO_VALUE.has(filter.op) ? '' : ` ${String(filter.value ?? '')}`}`;
          return html`<li><span>${text}</span><button type="button" aria-label=${`Remove the filter ${text}`} @click=${() => (this.filters = this.filters.filter((_, at) => at !== index))}>Remove</button></li>`;
        })}${this.filters.length ? '' : html`<li class="muted">No filter: every record shows.</li>`}</ul>
        <span class="control"><label for="filter-field">Field</label><select id="filter-field">${this.fields.map((field) => html`<option value=${field.id}>${field.name}</option>`)}</select></span>
        <span class="control"><label for="filter-op">Condition</label><select id="filter-op" @change=${(event: Event) => (this.newOp = (event.target as HTMLSelectElement).value)}>${OPERATORS.map(([value, label]) => html`<option value=${value} ?selected=${value === this.newOp}>${label}</option>`)}</select></span>
        ${NO_VALUE.has(this.newOp) ? '' : html`<span class="control"><label for="filter-value">Value</label><input id="filter-value" type="text" maxlength="200" /></span>`}
        <button type="button" @click=${() => this.addFilter()}>Add the filter</button>
      </fieldset>
      <fieldset><legend>Sort</legend>
        <span class="control"><label for="sort-field">Sort by</label><select id="sort-field" name="sort"><option value="" ?selected=${!sort}>No sort (record number)</option>${this.fields.map((field) => html`<option value=${field.id} ?selected=${sort?.field_id === field.id}>${field.name}</option>`)}</select></span>
        <span class="control"><label for="sort-direction">Direction</label><select id="sort-direction" name="direction"><option value="asc" ?selected=${sort?.direction !== 'desc'}>Ascending</option><option value="desc" ?selected=${sort?.direction === 'desc'}>Descending</option></select></span>
      </fieldset>
      <fieldset><legend>Hidden fields</legend>
        ${this.fields.map((field) => html`<label><input type="checkbox" name=${`hide-${field.id}`} ?checked=${(config.hidden_fields ?? []).includes(field.id)} /> Hide ${field.name}</label>`)}
      </fieldset>
      <span class="buttons"><button type="submit">Save the view</button><button type="button" @click=${() => (this.mode = 'none')}>Cancel</button></span>
    </form>`;
  }

  protected override render() {
    const menuId = `view-menu-${this.view.id}`;
    return html`<div class="head">
        <h2>${this.view.name}</h2>
        <span class="badge">${scopeOf(this.view)}</span>
        <button type="button" aria-expanded=${this.open ? 'true' : 'false'} aria-controls=${menuId} @click=${() => (this.open = !this.open)}>View menu</button>
      </div>
      <ul class="actions" id=${menuId} aria-label=${`Menu of view ${this.view.name}`} ?hidden=${!this.open}>
        <li><button type="button" @click=${() => this.show('rename')}>Rename</button></li>
        <li><button type="button" @click=${() => this.show('settings')}>Filter, sort and hide fields</button></li>
        <li><button type="button" @click=${() => void this.deleteView()}>Delete the view</button></li>
      </ul>
      ${this.mode === 'rename' ? html`<form aria-label=${`Rename view ${this.view.name}`} @submit=${(event: SubmitEvent) => this.rename(event)}>
        <span class="control"><label for="view-name">View name</label><input id="view-name" name="name" type="text" required maxlength="200" .value=${this.view.name} /></span>
        <span class="buttons"><button type="submit">Save the name</button><button type="button" @click=${() => (this.mode = 'none')}>Cancel</button></span>
      </form>` : ''}
      ${this.mode === 'settings' ? this.settings() : ''}`;
  }
}

customElements.define('tables-view-menu', TablesViewMenu);
