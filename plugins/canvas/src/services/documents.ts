import { defineCollabDocuments, InvalidError, memberMrn, type CollabChange, type CollabDocuments, type CollabSnapshot, type LoadedCollabDocument } from '@wpk/sdk';
import * as Y from 'yjs';
import type { Board, Models } from '../models/index.js';
import type { CanvasBaseContext, CanvasContext } from '../kit.js';
import { OBJECTS_ROOT, objectProblem } from './objects-model.js';

/** A board's document as stored: its state and the updates applied since, merged into one Y.Doc. */
export type LoadedDocument = LoadedCollabDocument;

/** The objects of a JSON snapshot (`{"objects": {...}}`), each as its JSON text (to tell a changed one). */
function printsOf(snapshot: CollabSnapshot | undefined): Map<string, string> {
  const objects = ((snapshot?.content ?? {}) as { objects?: Record<string, unknown> }).objects ?? {};
  return new Map(Object.entries(objects).map(([id, value]) => [id, JSON.stringify(value ?? null)]));
}

/**
 * Boards' documents on the SDK's editing stack (docs/app-kit/collab-documents.md): the one root
 * `objects`; after a change, every object it created or changed must be well formed (400 naming
 * the object and field, nothing stored), an image must show one of the board's uploaded images,
 * and a change that adds objects must leave at most `max_objects_per_board`. Stored updates are
 * merged every `compact_after_updates`; `canvas/boards/{id}` hears each as `doc.updated`.
 */
export const boardDocs: CollabDocuments<Models> = defineCollabDocuments<Models>({
  documents: 'boardDocuments',
  updates: 'boardUpdates',
  key: 'board_id',
  channel: (id) => `boards/${id}`,
  compactAfter: (ctx) => (ctx as CanvasBaseContext).settings.compact_after_updates,
  rootTypes: { [OBJECTS_ROOT]: 'map' },
  async check(doc, ctx, boardId, before) {
    const objects = doc.getMap<unknown>(OBJECTS_ROOT);
    const previous = printsOf(before);
    let added = false;
    for (const [id, value] of objects.entries()) {
      const print = value instanceof Y.Map ? JSON.stringify(value.toJSON()) : JSON.stringify(value ?? null);
      if (previous.get(id) === print) continue;
      added ||= !previous.has(id);
      const problem = objectProblem(id, value);
      if (problem) return problem;
      const map = value as Y.Map<unknown>;
      if (map.get('type') === 'image') {
        const imageProblem = await imageKeyProblem(ctx as CanvasBaseContext, boardId, map.get('file_key') as string, `objects.${id}.file_key`);
        if (imageProblem) return imageProblem;
      }
    }
    const limit = (ctx as CanvasBaseContext).settings.max_objects_per_board;
    if (added && objects.size > limit) return `A board holds at most ${limit} objects; this change would leave ${objects.size}`;
    return null;
  },
});

/**
 * Reads a board's document. With `lock`, the board's document lock is taken first (for the rest of
 * the transaction): writers of one board take turns, so a merge never loses an update.
 */
export function loadDocument(ctx: CanvasBaseContext, boardId: string, lock = false): Promise<LoadedDocument> {
  return boardDocs.load(ctx, boardId, { lock });
}

/** What one change did to the board's objects. */
export interface ChangeSummary {
  created: string[];
  updated: string[];
  deleted: string[];
  object_count: number;
}

/** A change to make: a Yjs update from a client, or an edit the server makes to the document. */
export type DocumentChange = CollabChange;

/**
 * Applies a change to a board's document through the editing stack (checked, stored, published;
 * `boardDocs`), and answers what it did to the objects: their ids created, updated and deleted,
 * from the JSON snapshots before and after. The board's `object_count` follows.
 */
export async function changeDocument(ctx: CanvasContext, board: Board, change: DocumentChange): Promise<ChangeSummary & { update: Uint8Array }> {
  let result;
  try {
    result = await boardDocs.apply(ctx, board.id, change, ctx.member.id);
  } catch (error) {
    // The stack names its roots as "this document's"; a board's has one.
    if (error instanceof InvalidError && error.message.startsWith("update: this document's roots are")) {
      throw new InvalidError(error.message.replace(/^update: this document's roots are objects; the update writes/, `update: a board's document has one root, ${OBJECTS_ROOT}; this update writes`));
    }
    throw error;
  }
  const before = printsOf({ content: result.content_before, text: '' });
  const after = printsOf({ content: result.content, text: '' });
  const created: string[] = [];
  const updated: string[] = [];
  const deleted: string[] = [];
  for (const [id, print] of after) {
    const previous = before.get(id);
    if (previous === print) continue;
    (previous === undefined ? created : updated).push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) deleted.push(id);
  if (after.size !== board.object_count || created.length + updated.length + deleted.length > 0) {
    await ctx.db.boards.update({ object_count: after.size }, { where: { id: board.id } });
  }
  return { created, updated, deleted, object_count: after.size, update: result.update };
}

/** Why an image object does not show a file of this board's images that exists (`label` names the field), or null. */
async function imageKeyProblem(ctx: CanvasBaseContext, boardId: string, key: string, label: string): Promise<string | null> {
  if (!imageKeyPattern(boardId).test(key)) return `${label}: must be the file_key of an image uploaded to this board (POST /canvas/boards/${boardId}/images)`;
  if (!(await ctx.storage.head(key))) return `${label}: no image was uploaded under ${key}`;
  return null;
}

/** An image object shows a file of this board's images that exists (`label` names the field in the error). */
export async function checkImageKey(ctx: CanvasContext, board: Board, key: string, label: string): Promise<void> {
  const problem = await imageKeyProblem(ctx, board.id, key, label);
  if (problem) throw new InvalidError(problem);
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
