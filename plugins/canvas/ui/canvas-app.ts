import { AppRoot, css, html } from '@wpk/ui';
import './screens/boards.js';
import './screens/board.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class CanvasApp extends AppRoot {
  static override styles = [AppRoot.styles, css`:host { --wpk-app-width: 1400px; }`];
  protected readonly label = 'Canvas';
  protected readonly sections = [{ path: '/', label: 'Boards' }];
  protected readonly screens = [
    { path: '/boards/:board_id', render: ({ board_id }: Record<string, string>) => html`<canvas-board board-id=${board_id}></canvas-board>` },
    { path: '/', render: () => html`<canvas-boards></canvas-boards>` },
  ];
}

customElements.define('canvas-app', CanvasApp);
