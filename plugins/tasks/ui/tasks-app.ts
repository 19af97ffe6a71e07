import { LitElement, css, html, matchRoute, navigate, onRoute, sharedStyles } from '@wpk/ui';
import { appHref } from './api.js';
import './screens/board.js';
import './screens/boards.js';
import './screens/incubator.js';
import './screens/task.js';

/** The app's screens by path: the shell hands the path over (deep links) and keeps history. */
export class TasksApp extends LitElement {
  static override properties = { path: { state: true } };
  declare path: string;
  private stop: (() => void) | null = null;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; max-width: 1400px; margin: 0 auto; padding: var(--wpk-space-3) var(--wpk-space-4) var(--wpk-space-6); }
      nav { display: flex; gap: var(--wpk-space-4); border-bottom: 1px solid var(--wpk-color-border); margin-bottom: var(--wpk-space-4); }
      nav a { padding: var(--wpk-space-2) 0; text-decoration: none; color: var(--wpk-color-text); border-bottom: 3px solid transparent; }
      nav a[aria-current='page'] { border-bottom-color: var(--wpk-color-brand); font-weight: var(--wpk-font-weight-bold); }
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
  }

  private link(path: string, label: string, current: boolean) {
    return html`<a href=${appHref(path)} aria-current=${current ? 'page' : 'false'} @click=${(event: Event) => {
      event.preventDefault();
      void navigate(path);
    }}>${label}</a>`;
  }

  private screen() {
    const board = matchRoute('/boards/:board_id', this.path);
    if (board) return html`<tasks-board board-id=${board.board_id}></tasks-board>`;
    const task = matchRoute('/tasks/:task_id', this.path);
    if (task) return html`<tasks-task task-id=${task.task_id}></tasks-task>`;
    if (matchRoute('/incubator', this.path)) return html`<tasks-incubator></tasks-incubator>`;
    return html`<tasks-boards></tasks-boards>`;
  }

  protected override render() {
    const incubator = this.path.startsWith('/incubator');
    return html`<nav aria-label="Tasks">${this.link('/', 'Boards', !incubator)}${this.link('/incubator', 'Incubator', incubator)}</nav>
      <main>${this.screen()}</main>`;
  }
}

customElements.define('tasks-app', TasksApp);
