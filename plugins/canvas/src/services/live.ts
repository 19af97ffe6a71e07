import type { CanvasBaseContext } from '../kit.js';

/**
 * The app's live channel (docs/live-updates.md): `canvas/boards/{board_id}` carries a board's
 * changes to everyone following it: `doc.updated` (a Yjs update, base64), `board.updated`,
 * `board.deleted`, `comment.*`, `voting.*`, `export.*`. Cursors travel as the socket's ephemeral
 * `signal` messages on the same channel, never stored.
 */
export function publishToBoard(ctx: CanvasBaseContext, boardId: string, type: string, data: unknown, audience?: string[]): void {
  ctx.live.publish(`boards/${boardId}`, type, data, audience ? { audience } : undefined);
}
