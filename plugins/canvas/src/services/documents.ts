import { InvalidError, memberMrn } from '@wpk/sdk';
import * as Y from 'yjs';
import type { Board } from '../models/index.js';
import type { CanvasBaseContext, CanvasContext } from '../kit.js';
import { publishToBoard } from './live.js';
import { fingerprints, OBJECTS_ROOT, objectProblem } from './objects-model.js';

/** A board's document as stored: its snapshot and the updates applied since, merged into one Y.Doc. */
export interface LoadedDocument {
  doc: Y.Doc;
  /** Ids of the stored updates not yet in the snapshot. */
  updateIds: string[];
}

/**
 * Reads a board's document. With `lock`, the board's document lock is taken first (for the rest of
 * the transaction): writers of one board take turns, so a compaction never loses an update.
 */
export async function loadDocument(ctx: CanvasBaseContext, boardId: string, lock = false): Promise<LoadedDocument> {
  if (lock) await ctx.lock(`board-document:${boardId}`);
  const doc = new Y.Doc({ gc: true });
  const stored = await ctx.db.boardDocuments.findOne({ where: { board_id: boardId } });
  if (stored) Y.applyUpdate(doc, new Uint8Array(stored.snapshot));
  const updates = await ctx.db.boardUpdates.findAll({ where: { board_id: boardId }, order: [['created_at', 'ASC'], ['id', 'ASC']], attributes: ['id', 'data'] });
  for (const update of updates) Y.applyUpdate(doc, new Uint8Array(update.data));
  return { doc, updateIds: updates.map((update) => update.id) };
}

/** What one change did to the board's objects. */
export interface ChangeSummary {
  created: string[];
  updated: string[];
  deleted: string[];
  object_count: number;
}

/** A change to make: a Yjs update from a client, or an edit the server makes to the document. */
export type DocumentChange = { update: Uint8Array } | { edit(doc: Y.Doc): void };

/**
 * Applies a change to a board's document, under its lock: the objects it created or changed must
 * be well formed (400 naming the object and field otherwise, nothing stored), the board must stay
 * within `max_objects_per_board`. The update is stored, and every `compact_after_updates` the
 * stored updates are merged into the snapshot. Subscribers of `canvas/boards/{id}` receive it as
 * `doc.updated` (base64) after commit.
 */
export async function changeDocument(ctx: CanvasContext, board: Board, change: DocumentChange): Promise<ChangeSummary & { update: Uint8Array }> {
  const { doc, updateIds } = await loadDocument(ctx, board.id, true);
  const before = fingerprints(doc);
  const vectorBefore = Buffer.from(Y.encodeStateVector(doc));
  let update: Uint8Array;
  if ('update' in change) {
    update = change.update;
    try {
      Y.applyUpdate(doc, update);
    } catch {
      throw new InvalidError('update: not a Yjs update (it could not be decoded)');
    }
  } else {
    const captured: Uint8Array[] = [];
    doc.on('update', (bytes: Uint8Array) => captured.push(bytes));
    doc.transact(() => change.edit(doc));
    if (captured.length === 0) return { created: [], updated: [], deleted: [], object_count: doc.getMap(OBJECTS_ROOT).size, update: new Uint8Array() };
    update = captured.length === 1 ? captured[0] : Y.mergeUpdates(captured);
  }
  const roots = [...doc.share.keys()].filter((name) => name !== OBJECTS_ROOT);
  if (roots.length > 0) throw new InvalidError(`update: a board's document has one root, ${OBJECTS_ROOT}; this update writes ${roots.map((name) => JSON.stringify(name.slice(0, 60))).join(', ')}`);
  const after = fingerprints(doc);
  const created: string[] = [];
  const updated: string[] = [];
  const deleted: string[] = [];
  const objects = doc.getMap<unknown>(OBJECTS_ROOT);
  for (const [id, print] of after) {
    const previous = before.get(id);
    if (previous === print) continue;
    const problem = objectProblem(id, objects.get(id));
    if (problem) throw new InvalidError(problem);
    const map = objects.get(id) as Y.Map<unknown>;
    if (map.get('type') === 'image') await checkImageKey(ctx, board, map.get('file_key') as string, `objects.${id}.file_key`);
    (previous === undefined ? created : updated).push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) deleted.push(id);
  if (created.length > 0 && after.size > ctx.settings.max_objects_per_board) {
    throw new InvalidError(`A board holds at most ${ctx.settings.max_objects_per_board} objects; this change would leave ${after.size}`);
  }
  // An update that brings nothing new (one already applied) is not stored; one Yjs holds back
  // (pending: it depends on an update not seen yet) is, so the later one completes it.
  const pending = doc.store.pendingStructs !== null || doc.store.pendingDs !== null;
  const changedObjects = created.length + updated.length + deleted.length > 0;
  if (!changedObjects && !pending && vectorBefore.equals(Buffer.from(Y.encodeStateVector(doc)))) return { created, updated, deleted, object_count: after.size, update };
  const stored = await ctx.db.boardUpdates.create({ board_id: board.id, data: Buffer.from(update), member_id: ctx.member.id });
  if (updateIds.length + 1 >= ctx.settings.compact_after_updates) await compact(ctx, board.id, doc, [...updateIds, stored.id]);
  if (after.size !== board.object_count || changedObjects) {
    await ctx.db.boards.update({ object_count: after.size }, { where: { id: board.id } });
  }
  publishToBoard(ctx, board.id, 'doc.updated', { update: Buffer.from(update).toString('base64'), member_id: ctx.member.id });
  return { created, updated, deleted, object_count: after.size, update };
}

/** Merges the stored updates into the board's snapshot (the caller holds the document lock). */
async function compact(ctx: CanvasContext, boardId: string, doc: Y.Doc, updateIds: string[]): Promise<void> {
  const snapshot = Buffer.from(Y.encodeStateAsUpdate(doc));
  await ctx.db.boardDocuments.upsert({ board_id: boardId, snapshot }, { conflictFields: ['board_id'] });
  await ctx.db.boardUpdates.destroy({ where: { id: updateIds } });
}

/** An image object shows a file of this board's images that exists (`label` names the field in the error). */
export async function checkImageKey(ctx: CanvasContext, board: Board, key: string, label: string): Promise<void> {
  if (!imageKeyPattern(board.id).test(key)) throw new InvalidError(`${label}: must be the file_key of an image uploaded to this board (POST /canvas/boards/${board.id}/images)`);
  if (!(await ctx.storage.head(key))) throw new InvalidError(`${label}: no image was uploaded under ${key}`);
}

/** The keys of a board's images: `boards/{board_id}/images/{image_id}`. */
export function imageKeyPattern(boardId: string): RegExp {
  return new RegExp(`^boards/${boardId}/images/[0-9a-f-]{36}$`);
}

/** Stages `core.canvas.board.edited` for a collaborative update that changed objects. */
export function emitEdited(ctx: CanvasContext, boardId: string, summary: ChangeSummary): void {
  ctx.events.stage('core.canvas.board.edited', {
    board_id: boardId,
    created_ids: summary.created.slice(0, 100),
    updated_ids: summary.updated.slice(0, 100),
    deleted_ids: summary.deleted.slice(0, 100),
    created_count: summary.created.length,
    updated_count: summary.updated.length,
    deleted_count: summary.deleted.length,
    edited_by: memberMrn(ctx.member.id),
  });
}
