import type { AppMigration } from '@wpk/sdk';
import * as Y from 'yjs';

interface StoredBoard {
  workspace_id: string;
  board_id: string;
  state: Buffer | null;
}

/**
 * A board's document moves onto the SDK's editing stack (`defineCollabDocuments`, shared with
 * papers, wiki and slides): `board_documents.snapshot` becomes `state` (null until the first
 * compaction, as the stack keeps it), and the stable JSON snapshot is stored beside it, `content`
 * (`{"objects": {...}}`) and `text`. Each stored board's content is written here, from its state
 * and the updates not yet merged, so it is current from the start.
 */
export const boardDocumentsOnTheEditingStack: AppMigration = {
  name: '0002-board-documents-on-the-editing-stack',
  async up({ query }) {
    await query('ALTER TABLE board_documents RENAME COLUMN snapshot TO state');
    await query('ALTER TABLE board_documents ALTER COLUMN state DROP NOT NULL');
    await query("ALTER TABLE board_documents ADD COLUMN content jsonb NOT NULL DEFAULT '{}'::jsonb, ADD COLUMN text text NOT NULL DEFAULT ''");
    const boards = (await query(
      `SELECT b.workspace_id, b.id AS board_id, d.state
         FROM boards b LEFT JOIN board_documents d ON d.workspace_id = b.workspace_id AND d.board_id = b.id
        WHERE d.board_id IS NOT NULL OR EXISTS (SELECT 1 FROM board_updates u WHERE u.workspace_id = b.workspace_id AND u.board_id = b.id)`,
    )) as StoredBoard[];
    for (const board of boards) {
      const doc = new Y.Doc({ gc: true });
      if (board.state) Y.applyUpdate(doc, new Uint8Array(board.state));
      const updates = (await query('SELECT data FROM board_updates WHERE workspace_id = :workspace AND board_id = :board ORDER BY created_at, id', { workspace: board.workspace_id, board: board.board_id })) as Array<{ data: Buffer }>;
      for (const update of updates) Y.applyUpdate(doc, new Uint8Array(update.data));
      await query(
        `INSERT INTO board_documents (workspace_id, board_id, state, content, text) VALUES (:workspace, :board, NULL, CAST(:content AS jsonb), '')
         ON CONFLICT (workspace_id, board_id) DO UPDATE SET content = EXCLUDED.content`,
        { workspace: board.workspace_id, board: board.board_id, content: JSON.stringify({ objects: doc.getMap('objects').toJSON() }) },
      );
    }
  },
  async down({ query }) {
    // A board whose updates were never merged has no state: it is made from them, as before.
    await query('DELETE FROM board_documents WHERE state IS NULL');
    await query('ALTER TABLE board_documents DROP COLUMN content, DROP COLUMN text');
    await query('ALTER TABLE board_documents ALTER COLUMN state SET NOT NULL');
    await query('ALTER TABLE board_documents RENAME COLUMN state TO snapshot');
  },
};
