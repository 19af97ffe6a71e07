import { LitElement, css, html, type CSSResultGroup, type TemplateResult } from 'lit';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import { startApp, type AppKit } from './app.js';
import { sharedStyles } from './components/shared-styles.js';
import { appLink, matchRoute, onRoute, sectionOf, type RouteParams } from './router.js';

/** One of an app's screens: the path pattern it answers (`/boards/:board_id`) and how it renders. */
export interface AppScreen {
  path: string;
  render: (params: RouteParams, path: string) => TemplateResult;
}

/** A tab of the app's navigation: a top-level path and its label. */
export interface AppSection {
  path: string;
  label: string;
  /** Shown only when true (for example an admin-only screen); shown when left out. */
  visible?: () => boolean;
}

/** A custom element's name as an app declares it (`contacts-list`): lower case, with a hyphen. */
function elementTag(tag: string) {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(tag)) throw new Error(`${tag} is not a custom element's name`);
  return unsafeStatic(tag);
}

/**
 * A list screen (`ListScreen`) at `path`: the element `tag`, handed the app's path with its query
 * (`/?status=draft`), so its table follows the filters in the URL.
 */
export function listScreen(path: string, tag: string): AppScreen {
  const element = elementTag(tag);
  return { path, render: (_params, current) => staticHtml`<${element} .path=${current}></${element}>` };
}

/**
 * The screens of a kind of record at the paths the record screens link to (`RecordDetail`,
 * `RecordEdit`): `/new` and `/{plural}/:id/edit` the form, `/{plural}/:id` the record's page,
 * each element given the id as `record-id`. They go before the app's other screens; its list at
 * `/` comes last.
 */
export function recordScreens(plural: string, tags: { detail: string; edit: string }): AppScreen[] {
  const detail = elementTag(tags.detail);
  const edit = elementTag(tags.edit);
  return [
    { path: '/new', render: () => staticHtml`<${edit}></${edit}>` },
    { path: `/${plural}/:id/edit`, render: ({ id }) => staticHtml`<${edit} record-id=${id}></${edit}>` },
    { path: `/${plural}/:id`, render: ({ id }) => staticHtml`<${detail} record-id=${id}></${detail}>` },
  ];
}

/**
 * The root element of an app's front-end (docs/ui.md, "The app's root"): it follows the route the
 * shell hands over (deep links, Back and Forward), renders the navigation of the app's sections
 * and the first of its screens whose path matches — the last screen is the fallback. An app's
 * root declares only its table:
 *
 * ```ts
 * class TasksApp extends AppRoot {
 *   label = 'Tasks';
 *   sections = [{ path: '/', label: 'Boards' }, { path: '/incubator', label: 'Incubator' }];
 *   screens = [
 *     { path: '/boards/:board_id', render: ({ board_id }) => html`<tasks-board board-id=${board_id}></tasks-board>` },
 *     { path: '/', render: () => html`<tasks-boards></tasks-boards>` },
 *   ];
 * }
 * customElements.define('tasks-app', TasksApp);
 * ```
 */
export abstract class AppRoot extends LitElement {
  static override properties = { path: { state: true } };
  /** The app's current path (`/boards/42?lane=Done`). */
  declare path: string;
  /** The accessible name of the app's navigation (the app's name). */
  protected abstract readonly label: string;
  /** The tabs of the navigation, the first one the app's home (`/`). */
  protected abstract readonly sections: readonly AppSection[];
  /** The screens by path, first match wins; the last one also renders any path no screen matches. */
  protected abstract readonly screens: readonly AppScreen[];
  private stop: (() => void) | null = null;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles: CSSResultGroup = [
    sharedStyles,
    css`
      :host { display: block; max-width: var(--wpk-app-width, 1100px); margin: 0 auto; padding: var(--wpk-space-3) var(--wpk-space-4) var(--wpk-space-6); }
      nav.sections ul { display: flex; flex-wrap: wrap; gap: var(--wpk-space-4); list-style: none; margin: 0 0 var(--wpk-space-4); padding: 0; border-bottom: 1px solid var(--wpk-color-border); }
      nav.sections a { display: inline-block; padding: var(--wpk-space-2) 0; text-decoration: none; color: var(--wpk-color-text); border-bottom: 3px solid transparent; }
      nav.sections a[aria-current='page'] { border-bottom-color: var(--wpk-color-brand); font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    this.stop = onRoute((path) => {
      this.path = path;
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop?.();
    this.stop = null;
  }

  /** The screen of the current path. */
  protected screen(): TemplateResult {
    for (const screen of this.screens) {
      const params = matchRoute(screen.path, this.path);
      if (params) return screen.render(params, this.path);
    }
    const fallback = this.screens[this.screens.length - 1];
    return fallback ? fallback.render({}, this.path) : html``;
  }

  protected override render(): TemplateResult {
    const shown = this.sections.filter((section) => section.visible?.() ?? true);
    const current = sectionOf(this.path, shown.map((section) => section.path));
    return html`<nav class="sections" aria-label=${this.label}>
        <ul>
          ${shown.map((section) => html`<li>${appLink(section.path, section.label, section.path === current)}</li>`)}
        </ul>
      </nav>
      <main>${this.screen()}</main>`;
  }
}

/**
 * Starts the front-end (`startApp()`: the bridge, the client) and puts the app's root element on
 * the page: the whole of an app's `ui/main.ts` after its imports.
 */
export async function mountApp(tag: string): Promise<AppKit> {
  const started = await startApp();
  document.body.append(document.createElement(tag));
  return started;
}
