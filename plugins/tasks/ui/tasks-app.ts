import { AppRoot, css, html } from '@wpk/ui';
import './screens/board.js';
import './screens/boards.js';
import './screens/incubator.js';
import './screens/task.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class TasksApp extends AppRoot {
  static override styles = [AppRoot.styles, css`:host { --wpk-app-width: 1400px; }`];
  protected readonly label = 'Tasks';
  protected readonly sections = [
    { path: '/', label: 'Boards' },
    { path: '/incubator', label: 'Incubator' },
  ];
  protected readonly screens = [
    { path: '/boards/:board_id', render: ({ board_id }: Record<string, string>) => html`<tasks-board board-id=${board_id}></tasks-board>` },
    { path: '/tasks/:task_id', render: ({ task_id }: Record<string, string>) => html`<tasks-task task-id=${task_id}></tasks-task>` },
    { path: '/incubator', render: () => html`<tasks-incubator></tasks-incubator>` },
    { path: '/', render: () => html`<tasks-boards></tasks-boards>` },
  ];
}

customElements.define('tasks-app', TasksApp);
