import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import type { Collection } from '@wpk/client/browser';
import { errorText, kit } from '../app.js';
import { navigate, routeQuery } from '../router.js';
import { nextSort, sortState, validSort, withQueryParam } from '../table-sort.js';
import { sharedStyles } from './shared-styles.js';
import './wa.js';

/** One column of a data table. */
export interface TableColumn<T> {
  /** The field (and the sort key, when `sortable`). */
  key: string;
  label: string;
  sortable?: boolean;
  /** How a cell shows (default: the field's text). */
  render?: (row: T) => TemplateResult | string;
}

/** One action offered on every row. */
export interface RowAction<T> {
  label: string;
  run: (row: T) => unknown;
  danger?: boolean;
}

/** What the table loads: an API path, or a function answering a collection envelope. */
export type TableSource<T> = string | ((url: string) => Promise<Collection<T>>);

/**
 * `<wpk-data-table>`: a table over the platform's collection envelope. It loads `source` (an API
 * path such as `/tasks?board_id=…`), pages by the envelope's `links` (never by counting pages
 * itself), sorts with `?sort=field` / `?sort=-field` on sortable columns, filters with `?q=`,
 * and shows a loading state, an empty state and a row's actions.
 *
 * A sortable column's header is a button (Enter or Space sorts by it; again flips the order) and
 * carries `aria-sort`. The sort is kept in the app's own URL (`?sort=-due_date` on the screen's
 * path, replacing the history entry), so a reload, a shared link and Back from a detail page show
 * the list sorted as it was; `sort-param` names that parameter (for two tables on one screen), and
 * `sort-param=""` keeps the sort out of the URL. Only columns the API sorts by may be `sortable`.
 *
 * ```ts
 * html`<wpk-data-table caption="Tasks" .source=${'/tasks'} .columns=${[{ key: 'title', label: 'Title', sortable: true }]}
 *   .actions=${[{ label: 'Delete', danger: true, run: (task) => remove(task) }]}></wpk-data-table>`
 * ```
 */
export class WpkDataTable<T extends Record<string, unknown> = Record<string, unknown>> extends LitElement {
  static override properties = {
    caption: { type: String },
    source: { attribute: false },
    columns: { attribute: false },
    actions: { attribute: false },
    filterable: { type: Boolean },
    filterLabel: { attribute: 'filter-label' },
    empty: { type: String },
    perPage: { type: Number, attribute: 'per-page' },
    sortParam: { type: String, attribute: 'sort-param' },
    rows: { state: true },
    loading: { state: true },
    error: { state: true },
    links: { state: true },
    pagination: { state: true },
    sort: { state: true },
  };

  declare caption: string;
  declare source: TableSource<T>;
  declare columns: TableColumn<T>[];
  declare actions: RowAction<T>[];
  declare filterable: boolean;
  declare filterLabel: string;
  declare empty: string;
  declare perPage: number;
  declare sortParam: string;
  declare rows: T[];
  declare loading: boolean;
  declare error: string | null;
  declare links: Collection<T>['links'] | null;
  declare pagination: Collection<T>['pagination'] | null;
  declare sort: string | null;
  private filter = '';
  private filterTimer: ReturnType<typeof setTimeout> | undefined;
  private ticket = 0;
  private readonly onRoute = () => this.followRoute();

  constructor() {
    super();
    this.caption = '';
    this.columns = [];
    this.actions = [];
    this.filterable = false;
    this.filterLabel = 'Filter';
    this.empty = 'Nothing here yet.';
    this.perPage = 25;
    this.sortParam = 'sort';
    this.rows = [];
    this.loading = true;
    this.error = null;
    this.links = null;
    this.pagination = null;
    this.sort = null;
  }

  static override styles = [sharedStyles, css`
    :host { display: block; }
    .bar { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-bottom: var(--wpk-space-2); }
    .wrap { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; }
    caption { text-align: left; font-weight: var(--wpk-font-weight-bold); padding-bottom: var(--wpk-space-2); }
    th, td { text-align: left; padding: var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); vertical-align: top; }
    th button { all: unset; cursor: pointer; font-weight: var(--wpk-font-weight-bold); }
    th button:focus-visible { outline: 2px solid var(--wpk-color-focus); }
    .state { padding: var(--wpk-space-5); text-align: center; color: var(--wpk-color-text-muted); }
    .pager { display: flex; gap: var(--wpk-space-3); align-items: center; margin-top: var(--wpk-space-2); }
    .actions { white-space: nowrap; text-align: right; }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.sortParam) {
      this.sort = this.sortInRoute() ?? this.sort;
      kit().bridge.addEventListener('route', this.onRoute);
    }
    void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    kit().bridge.removeEventListener('route', this.onRoute);
  }

  /** The sort the app's URL names, when a sortable column has that key. */
  private sortInRoute(): string | null {
    const sortable = this.columns.filter((column) => column.sortable).map((column) => column.key);
    return validSort(routeQuery(kit().bridge.route).get(this.sortParam), sortable);
  }

  /** Back or Forward to the same screen sorted otherwise: sort as the URL says. */
  private followRoute(): void {
    const wanted = this.sortInRoute();
    if (wanted === this.sort) return;
    this.sort = wanted;
    void this.reload();
  }

  /** The first page again (after a change the table should show). */
  reload(): Promise<void> {
    return this.load(this.firstUrl());
  }

  private firstUrl(): string {
    if (typeof this.source !== 'string') return `?page=1&per_page=${this.perPage}`;
    const url = new URL(this.source, 'http://table.invalid');
    url.searchParams.set('page', '1');
    url.searchParams.set('per_page', String(this.perPage));
    if (this.sort) url.searchParams.set('sort', this.sort);
    else url.searchParams.delete('sort');
    if (this.filter) url.searchParams.set('q', this.filter);
    else url.searchParams.delete('q');
    return `${url.pathname}${url.search}`;
  }

  private async load(url: string): Promise<void> {
    const ticket = ++this.ticket;
    this.loading = true;
    this.error = null;
    try {
      const page = typeof this.source === 'function' ? await this.source(url) : await kit().client.request<Collection<T>>('GET', url);
      if (ticket !== this.ticket) return; // a newer load is on its way
      this.rows = page.data;
      this.links = page.links;
      this.pagination = page.pagination;
    } catch (error) {
      if (ticket === this.ticket) this.error = errorText(error);
    } finally {
      if (ticket === this.ticket) this.loading = false;
    }
  }

  private sortBy(key: string): void {
    this.sort = nextSort(this.sort, key);
    void this.reload();
    if (this.sortParam) void navigate(withQueryParam(kit().bridge.route, this.sortParam, this.sort), { replace: true });
  }

  private onFilter(event: Event): void {
    this.filter = String((event.target as HTMLInputElement).value ?? '').trim();
    clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => void this.reload(), 200);
  }

  private sortState(key: string): 'ascending' | 'descending' | 'none' {
    return sortState(this.sort, key);
  }

  protected override render() {
    const columns = this.columns;
    return html`
      ${this.filterable ? html`<div class="bar"><wa-input label=${this.filterLabel} type="search" @input=${this.onFilter}></wa-input></div>` : nothing}
      <div class="wrap" aria-busy=${this.loading ? 'true' : 'false'}>
        <table>
          ${this.caption ? html`<caption>${this.caption}</caption>` : nothing}
          <thead>
            <tr>
              ${columns.map((column) =>
                column.sortable
                  ? html`<th scope="col" aria-sort=${this.sortState(column.key)}><button type="button" @click=${() => this.sortBy(column.key)}>${column.label}<span aria-hidden="true">${this.sortState(column.key) === 'ascending' ? ' ▲' : this.sortState(column.key) === 'descending' ? ' ▼' : ''}</span></button></th>`
                  : html`<th scope="col">${column.label}</th>`,
              )}
              ${this.actions.length ? html`<th scope="col"><span class="wpk-visually-hidden">Actions</span></th>` : nothing}
            </tr>
          </thead>
          <tbody>
            ${this.rows.map(
              (row) => html`<tr>
                ${columns.map((column) => html`<td>${column.render ? column.render(row) : String(row[column.key] ?? '')}</td>`)}
                ${this.actions.length
                  ? html`<td class="actions">${this.actions.map((action) => html`<wa-button size="small" appearance="outlined" variant=${action.danger ? 'danger' : 'neutral'} @click=${() => action.run(row)}>${action.label}</wa-button> `)}</td>`
                  : nothing}
              </tr>`,
            )}
          </tbody>
        </table>
        ${this.loading && this.rows.length === 0 ? html`<div class="state" role="status"><wa-spinner label="Loading"></wa-spinner></div>` : nothing}
        ${!this.loading && !this.error && this.rows.length === 0 ? html`<div class="state" role="status">${this.empty}</div>` : nothing}
        ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      </div>
      ${this.pagination && this.pagination.pages > 1
        ? html`<nav class="pager" aria-label="Pages">
            <wa-button size="small" ?disabled=${!this.links?.prev} @click=${() => this.links?.prev && this.load(this.links.prev)}>Previous</wa-button>
            <span>Page ${this.pagination.page} of ${this.pagination.pages}</span>
            <wa-button size="small" ?disabled=${!this.links?.next} @click=${() => this.links?.next && this.load(this.links.next)}>Next</wa-button>
          </nav>`
        : nothing}
    `;
  }
}

customElements.define('wpk-data-table', WpkDataTable);

declare global {
  interface HTMLElementTagNameMap {
    'wpk-data-table': WpkDataTable;
  }
}
