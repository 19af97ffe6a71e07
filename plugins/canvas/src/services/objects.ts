import { ConflictError, InvalidError, memberMrn, newId, NotFoundError } from '@wpk/sdk';
import * as Y from 'yjs';
import type { Board } from '../models/index.js';
import type { CanvasContext } from '../kit.js';
import { changeDocument, checkImageKey, emitEdited, loadDocument } from './documents.js';
import { FIELDS, OBJECTS_ROOT, readObjects, writeFields, type CanvasObject, type ObjectType } from './objects-model.js';
import { requireBoard } from './boards.js';

/** A board's objects, bottom to top, one page. */
export async function listObjects(ctx: CanvasContext, boardId: string, query: { type?: ObjectType }): Promise<{ rows: CanvasObject[]; count: number }> {
  const board = await requireBoard(ctx, boardId);
  const { doc } = await loadDocument(ctx, board.id);
  const all = readObjects(doc).filter((object) => !query.type || object.type === query.type);
  return { rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length };
}

/** One object of a board, or 404. */
export async function readObject(ctx: CanvasContext, boardId: string, objectId: string): Promise<CanvasObject> {
  const board = await requireBoard(ctx, boardId);
  const { doc } = await loadDocument(ctx, board.id);
  const found = readObjects(doc).find((object) => object.id === objectId);
  if (!found) throw new NotFoundError(`Object ${objectId} not found on board ${board.id}`);
  return found;
}

/** The object's fields a type does not have are refused by name. */
function checkFieldsOfType(type: ObjectType, fields: Record<string, unknown>): void {
  for (const field of Object.keys(fields)) {
    if (fields[field] === undefined) continue;
    if (!(field in FIELDS[type].rules)) throw new InvalidError(`${field}: a ${type} has no field ${field}`);
  }
}

/** Connectors bind to objects of the same board. */
function checkBindings(objects: Y.Map<unknown>, fields: Record<string, unknown>, self: string): void {
  for (const field of ['from_id', 'to_id']) {
    const target = fields[field];
    if (typeof target !== 'string') continue;
    if (target === self || !objects.has(target)) throw new InvalidError(`${field}: no other object ${target} on this board`);
  }
}

/** Adds an object (its id: the given one, or a new uuid); the change reaches live followers as a Yjs update. */
export async function createObject(ctx: CanvasContext, boardId: string, input: Record<string, unknown> & { type: ObjectType; id?: string }): Promise<CanvasObject> {
  const board = await requireBoard(ctx, boardId);
  const { id = newId(), type, ...fields } = input;
  checkFieldsOfType(type, fields);
  for (const field of FIELDS[type].required) if (fields[field] === undefined) throw new InvalidError(`${field} is required for a ${type}`);
  if (typeof fields.file_key === 'string') await checkImageKey(ctx, board, fields.file_key, 'file_key');
  await changeDocument(ctx, board, {
    edit(doc) {
      const objects = doc.getMap<unknown>(OBJECTS_ROOT);
      if (objects.has(id)) throw new ConflictError(`Board ${board.id} already has an object ${id}`);
      checkBindings(objects, fields, id);
      const map = new Y.Map<unknown>();
      objects.set(id, map);
      map.set('type', type);
      if (fields.z === undefined) map.set('z', topZ(objects) + 1);
      writeFields(map, fields);
    },
  });
  const made = await readObject(ctx, board.id, id);
  ctx.events.stage('core.canvas.object.created', { board_id: board.id, object_id: id, type, created_by: memberMrn(ctx.member.id) });
  return made;
}

/** The highest z of the board's objects (0 when empty). */
function topZ(objects: Y.Map<unknown>): number {
  let top = 0;
  for (const value of objects.values()) {
    const z = value instanceof Y.Map ? value.get('z') : undefined;
    if (typeof z === 'number' && Number.isFinite(z) && z > top) top = z;
  }
  return Math.floor(top);
}

/** Changes an object's fields (`null` clears an optional one: a connector's binding, say). */
export async function updateObject(ctx: CanvasContext, boardId: string, objectId: string, fields: Record<string, unknown>): Promise<CanvasObject> {
  const board = await requireBoard(ctx, boardId);
  if (typeof fields.file_key === 'string') await checkImageKey(ctx, board, fields.file_key, 'file_key');
  let changed: string[] = [];
  const summary = await changeDocument(ctx, board, {
    edit(doc) {
      const objects = doc.getMap<unknown>(OBJECTS_ROOT);
      const map = objects.get(objectId);
      if (!(map instanceof Y.Map)) throw new NotFoundError(`Object ${objectId} not found on board ${board.id}`);
      const type = map.get('type') as ObjectType;
      if (fields.type !== undefined && fields.type !== type) throw new InvalidError(`type: an object's type cannot change (it is a ${type})`);
      const { type: _type, ...rest } = fields;
      checkFieldsOfType(type, rest);
      checkBindings(objects, rest, objectId);
      for (const field of FIELDS[type].required) if (rest[field] === null) throw new InvalidError(`${field} is required for a ${type}`);
      const beforeFields = map.toJSON() as Record<string, unknown>;
      writeFields(map, rest);
      const afterFields = map.toJSON() as Record<string, unknown>;
      changed = Object.keys(rest).filter((field) => JSON.stringify(beforeFields[field] ?? null) !== JSON.stringify(afterFields[field] ?? null));
    },
  });
  const object = await readObject(ctx, board.id, objectId);
  if (summary.updated.length > 0) ctx.events.stage('core.canvas.object.updated', { board_id: board.id, object_id: objectId, changed_fields: changed, updated_by: memberMrn(ctx.member.id) });
  return object;
}

/** Removes an object; connectors bound to it stay, unbound, where they were drawn. */
export async function deleteObject(ctx: CanvasContext, boardId: string, objectId: string): Promise<{ id: string; deleted: true; unbound_ids: string[] }> {
  const board = await requireBoard(ctx, boardId);
  const unbound: string[] = [];
  await changeDocument(ctx, board, {
    edit(doc) {
      const objects = doc.getMap<unknown>(OBJECTS_ROOT);
      if (!objects.has(objectId)) throw new NotFoundError(`Object ${objectId} not found on board ${board.id}`);
      objects.delete(objectId);
      for (const [id, value] of objects.entries()) {
        if (!(value instanceof Y.Map) || value.get('type') !== 'connector') continue;
        let touched = false;
        for (const field of ['from_id', 'to_id']) {
          if (value.get(field) === objectId) {
            value.delete(field);
            touched = true;
          }
        }
        if (touched) unbound.push(id);
      }
    },
  });
  ctx.events.stage('core.canvas.object.deleted', { board_id: board.id, object_id: objectId, deleted_by: memberMrn(ctx.member.id) });
  return { id: objectId, deleted: true, unbound_ids: unbound.sort() };
}

/** Applies a client's Yjs update; `core.canvas.board.edited` when it changed objects. */
export async function applyUpdate(ctx: CanvasContext, boardId: string, base64: string) {
  const board: Board = await requireBoard(ctx, boardId);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0 || bytes.toString('base64') !== base64.replace(/\s+/g, '')) throw new InvalidError('update: must be a Yjs update in base64');
  const summary = await changeDocument(ctx, board, { update: new Uint8Array(bytes) });
  if (summary.created.length + summary.updated.length + summary.deleted.length > 0) emitEdited(ctx, board.id, summary);
  return { board_id: board.id, created_ids: summary.created, updated_ids: summary.updated, deleted_ids: summary.deleted, object_count: summary.object_count };
}

/** The board's whole document as one Yjs update (base64), and its state vector. */
export async function readDocument(ctx: CanvasContext, boardId: string) {
  const board = await requireBoard(ctx, boardId);
  const { doc } = await loadDocument(ctx, board.id);
  return {
    board_id: board.id,
    update: Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64'),
    state_vector: Buffer.from(Y.encodeStateVector(doc)).toString('base64'),
    object_count: doc.getMap(OBJECTS_ROOT).size,
  };
}
