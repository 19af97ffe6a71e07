import { AppRoot, css, html } from '@wpk/ui';
import './screens/boards.js';

/** The board screen with the Yjs replica is loaded on first use: the boards list stays light. */
let boardScreen: Promise<unknown> | null = null;
const loadBoardScreen = () => (boardScreen ??= import('./screens/board.js'));

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class CanvasApp extends AppRoot {
  static override styles = [AppRoot.styles, css`:host { --wpk-app-width: 1400px; }`];
  protected readonly label = 'Canvas';
  protected readonly sections = [{ path: '/', label: 'Boards' }];
  protected readonly screens = [
    {
      path: '/boards/:board_id',
      render: ({ board_id }: Record<string, string>) => {
        void loadBoardScreen();
        return html`<canvas-board board-id=${board_id}></canvas-board>`;
      },
    },
    { path: '/', render: () => html`<canvas-boards></canvas-boards>` },
  ];
}

customElements.define('canvas-app', CanvasApp);
