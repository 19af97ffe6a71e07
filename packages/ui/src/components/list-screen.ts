import { LitElement, css, html, nothing, type CSSResultGroup, type PropertyValues, type TemplateResult } from 'lit';
import { kit } from '../app.js';
import { appLink } from '../router.js';
import type { RowAction, TableColumn, TableSource, WpkDataTable } from './data-table.js';
import { screenStyles } from './shared-styles.js';
import './data-table.js';

/** The table of a list screen: what `<wpk-data-table>` loads and says. */
export interface ListTable<T> {
  /** The table's caption (what the rows are, in which order). */
  caption: string;
  /** The API path (or a function answering an envelope) the rows come from. */
  source: TableSource<T>;
  /** What the table says when there is no row. */
  empty: string;
  /** Shows the search box (`?q=`) with this label. */
  filter?: string;
  /** Rows a page (the table's default, 25, when left out). */
  perPage?: number;
  actions?: RowAction<T>[];
}

/** The "New" link of a list screen's header: `{ path: '/new', label: 'New contact' }`. */
export interface ListNewLink {
  path: string;
  label: string;
}

/**
 * An app's list screen (docs/ui.md, "List screens: `ListScreen`"): the heading, which is also the
 * shell's title, a "New" link beside it, whatever goes between (a line of text, filters), and the
 * rows as a `<wpk-data-table>` (its empty state, its paging by the envelope's links). The
 * element takes the app's `path` (with its query) as a property; a screen whose table depends
 * on it (`?status=`) reads it in `table()`, and the table loads again when it changes. A subclass
 * gives `heading`, `columns` and `table()`, and if it likes `newLink` and `intro()`:
 *
 * ```ts
 * class CompaniesList extends ListScreen<Company> {
 *   protected readonly heading = 'Companies';
 *   protected readonly newLink = { path: '/new', label: 'New company' };
 *   protected readonly columns = [{ key: 'name', label: 'Company', render: (company: Company) => appLink(`/companies/${company.id}`, company.name) }];
 *   protected table() { return { caption: "The workspace's companies", source: '/companies', filter: 'Search companies', empty: 'No company yet.' }; }
 * }
 * ```
 */
export abstract class ListScreen<T> extends LitElement {
  static override properties = { path: { attribute: false } };
  /** The app's current path with its query (`/?status=draft`); `/` when the app does not hand it over. */
  declare path: string;
  /** The screen's heading and the shell's title. */
  protected abstract readonly heading: string;
  /** The header's "New" link, when the screen has one. */
  protected readonly newLink: ListNewLink | null = null;
  protected abstract readonly columns: TableColumn<T>[];

  constructor() {
    super();
    this.path = '/';
  }

  static override styles: CSSResultGroup = [
    screenStyles,
    css`
      header { display: flex; flex-wrap: wrap; gap: var(--wpk-space-3); align-items: center; justify-content: space-between; margin-bottom: var(--wpk-space-3); }
      header h1 { margin: 0; }
      .new { display: inline-block; padding: var(--wpk-space-2) var(--wpk-space-3); border-radius: var(--wpk-radius-m); background: var(--wpk-color-brand-fill); }
      .new a { color: var(--wpk-color-on-brand-fill); text-decoration: none; font-weight: var(--wpk-font-weight-bold); }
      .intro { margin: 0 0 var(--wpk-space-3); }
      .filter { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; margin-bottom: var(--wpk-space-3); }
      .filter label { font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  /** What the table loads and says, for the current `path`. */
  protected abstract table(): ListTable<T>;

  /** What stands between the heading and the table: a `<p class="intro">`, a `.filter` row (nothing by default). */
  protected intro(): unknown {
    return nothing;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title(this.heading);
  }

  protected override updated(changed: PropertyValues): void {
    // Same screen, another query (a filter, a narrower list): the table loads its new source.
    if (changed.has('path') && changed.get('path') !== undefined) void this.reload();
  }

  /** The screen's table element. */
  protected dataTable(): WpkDataTable | null {
    return this.renderRoot.querySelector<WpkDataTable>('wpk-data-table');
  }

  /** Shows the table's first page again (after a row's action changed the list). */
  protected async reload(): Promise<void> {
    await this.dataTable()?.reload();
  }

  protected override render(): TemplateResult {
    const table = this.table();
    const heading = this.newLink
      ? html`<header>
          <h1>${this.heading}</h1>
          <span class="new">${appLink(this.newLink.path, this.newLink.label)}</span>
        </header>`
      : html`<h1>${this.heading}</h1>`;
    return html`${heading}
      ${this.intro()}
      <wpk-data-table caption=${table.caption} .source=${table.source} .columns=${this.columns} .actions=${table.actions ?? []}
        ?filterable=${table.filter !== undefined} filter-label=${table.filter ?? 'Filter'} per-page=${table.perPage ?? 25} empty=${table.empty}></wpk-data-table>`;
  }
}
