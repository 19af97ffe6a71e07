import { Joi } from '@wpk/sdk';
import { route, routeFamily } from '../kit.js';
import { EXPORT_TARGETS, SESSION_STATUSES, type ExportTarget } from '../models/index.js';
import { createBoard, deleteBoard, listBoards, requireBoard, updateBoard } from '../services/boards.js';
import { createComment, deleteComment, listComments, updateComment } from '../services/comments.js';
import { deleteExport, listExports, readExport, renderExport } from '../services/exports.js';
import { createImageUpload, IMAGE_MAX_BYTES, IMAGE_TYPES, readImage } from '../services/images.js';
import { applyUpdate, createObject, deleteObject, listObjects, readDocument, readObject, updateObject } from '../services/objects.js';
import { ARROWS, COLOR, COORDINATE_LIMIT, OBJECT_ID, OBJECT_TYPES, SHAPES, SIZE_LIMIT, TEXT_LIMIT, type ObjectType } from '../services/objects-model.js';
import { presentBoard, presentComment } from '../services/present.js';
import { castVote, closeSession, listSessions, presentSessionFor, removeVote, requireSession, startSession } from '../services/voting.js';
import {
  APPLIED_UPDATE,
  BOARD,
  COMMENT,
  DELETED,
  DELETED_EXPORT,
  DELETED_OBJECT,
  DOCUMENT,
  EXPORT,
  EXPORT_WITH_LINK,
  IMAGE,
  IMAGE_UPLOAD,
  OBJECT,
  SESSION,
} from './answers.js';

const id = () => Joi.id();
const objectId = () => Joi.string().pattern(OBJECT_ID).messages({ 'string.pattern.base': '{#label} must be an object id (1-100 letters, digits, - or _)' });
const params = (...names: string[]) => Joi.object(Object.fromEntries(names.map((name) => [name, name === 'object_id' ? objectId().required() : id().required()])));
const targetParams = Joi.object({ board_id: id().required(), target: Joi.string().valid(...EXPORT_TARGETS).required() });
const boardName = () => Joi.string().trim().min(1).max(200);
const description = () => Joi.string().max(2000).allow('');
const coordinate = () => Joi.number().min(-COORDINATE_LIMIT).max(COORDINATE_LIMIT);
const size = () => Joi.number().min(1).max(SIZE_LIMIT);
const color = () => Joi.string().pattern(COLOR).messages({ 'string.pattern.base': '{#label} must be a colour #rrggbb' });

/** An object's fields (every type's; a field the type does not have is refused by the service, by name). */
const objectFields = (nullable: boolean) => {
  const optional = (schema: ReturnType<typeof objectId>) => (nullable ? schema.allow(null) : schema);
  return {
    x: coordinate(),
    y: coordinate(),
    width: size(),
    height: size(),
    rotation: Joi.number().min(-360).max(360),
    z: Joi.number().min(-1e12).max(1e12),
    text: Joi.string().max(TEXT_LIMIT).allow(''),
    color: color(),
    stroke: color(),
    shape: Joi.string().valid(...SHAPES),
    font_size: Joi.number().min(4).max(400),
    end_x: coordinate(),
    end_y: coordinate(),
    from_id: optional(objectId()),
    to_id: optional(objectId()),
    arrow: Joi.string().valid(...ARROWS),
    file_key: Joi.string().max(300),
    alt: Joi.string().max(500).allow(''),
  };
};

const B = '/canvas/boards/{board_id}';

const boards = routeFamily('/canvas/boards', { record: BOARD });
const objects = routeFamily(`${B}/objects`, { params: params('board_id'), record: OBJECT });
const object = objects.at('/{object_id}', { params: params('board_id', 'object_id') });
const comments = routeFamily(`${B}/comments`, { params: params('board_id'), record: COMMENT });
const comment = comments.at('/{comment_id}', { params: params('board_id', 'comment_id') });
const voteSessions = routeFamily(`${B}/vote-sessions`, { params: params('board_id'), record: SESSION });
const boardExport = routeFamily(`${B}/exports/{target}`, { params: targetParams, record: EXPORT_WITH_LINK });

/** Every route of the Canvas app (the manifest's authorization table lists the same). */
export const routes = [
  boards.list({
    chain: ['canvas.boards.read'],
    description: 'Lists boards, most recently changed first; q matches the name or description',
    query: Joi.listQuery({ q: Joi.string().max(200).allow('') }),
    async handler(request, ctx) {
      const { rows, count } = await listBoards(ctx, request.query);
      return ctx.respond.collection(rows.map(presentBoard), count);
    },
  }),
  boards.post({
    chain: ['canvas.boards.create'],
    description: 'Creates an empty board',
    payload: Joi.object({ name: boardName().required(), description: description() }),
    async handler(request, ctx) {
      const board = await createBoard(ctx, request.payload);
      return ctx.respond.single(presentBoard(board), { self: `/canvas/boards/${board.id}` });
    },
  }),
  route({
    method: 'GET',
    path: B,
    chain: ['canvas.boards.read'],
    answers: { single: BOARD },
    description: 'Reads a board',
    validate: { params: params('board_id') },
    async handler(request, ctx) {
      const board = await requireBoard(ctx, request.params.board_id);
      const base = `/canvas/boards/${board.id}`;
      return ctx.respond.single(presentBoard(board), { objects: `${base}/objects`, document: `${base}/document`, comments: `${base}/comments`, vote_sessions: `${base}/vote-sessions`, exports: `${base}/exports` });
    },
  }),
  route({
    method: 'PATCH',
    path: B,
    chain: ['canvas.boards.edit'],
    answers: { single: BOARD },
    description: "UpdateBoard: the board's name and description",
    validate: { params: params('board_id'), payload: Joi.object({ name: boardName(), description: description() }).or('name', 'description') },
    async handler(request, ctx) {
      return ctx.respond.single(presentBoard(await updateBoard(ctx, request.params.board_id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: B,
    chain: [{ any_of: [{ check: 'board_creator' }, 'canvas.boards.delete'], message: 'Cannot delete this board' }],
    answers: { single: DELETED },
    description: 'Deletes a board with its objects, images, comments, voting sessions and exports (its creator, or canvas.boards.delete)',
    validate: { params: params('board_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteBoard(ctx, request.params.board_id));
    },
  }),
  route({
    method: 'GET',
    path: `${B}/document`,
    chain: ['canvas.boards.read'],
    answers: { single: DOCUMENT },
    description: "Reads the board's collaborative document: its whole Yjs state as one update (base64)",
    validate: { params: params('board_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await readDocument(ctx, request.params.board_id));
    },
  }),
  route({
    method: 'POST',
    path: `${B}/updates`,
    chain: ['canvas.boards.edit'],
    answers: { single: APPLIED_UPDATE },
    description: "Applies a Yjs update (base64) to the board's document: merged with everyone's edits, stored, and relayed live as doc.updated",
    validate: { params: params('board_id'), payload: Joi.object({ update: Joi.string().min(1).max(1_400_000).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await applyUpdate(ctx, request.params.board_id, request.payload.update));
    },
  }),
  objects.list({
    chain: ['canvas.boards.read'],
    description: "Lists a board's objects, bottom to top (z)",
    query: Joi.listQuery({ type: Joi.string().valid(...OBJECT_TYPES) }),
    run: (request, ctx) => listObjects(ctx, request.params.board_id, request.query as { type?: ObjectType }),
  }),
  objects.post({
    chain: ['canvas.boards.edit'],
    description: 'Adds an object: a sticky note, shape, text, connector or image (on top unless z is given)',
    payload: Joi.object({ id: objectId(), type: Joi.string().valid(...OBJECT_TYPES).required(), ...objectFields(false) }),
    async handler(request, ctx) {
      const object = await createObject(ctx, request.params.board_id, request.payload as never);
      return ctx.respond.single(object, { self: `/canvas/boards/${request.params.board_id}/objects/${object.id}` });
    },
  }),
  object.get({
    chain: ['canvas.boards.read'],
    description: 'Reads an object',
    run: (request, ctx) => readObject(ctx, request.params.board_id, request.params.object_id),
  }),
  object.patch({
    chain: ['canvas.boards.edit'],
    description: "Changes an object's fields (null unbinds a connector's end)",
    payload: Joi.object({ type: Joi.string().valid(...OBJECT_TYPES), ...objectFields(true) }).min(1),
    run: (request, ctx) => updateObject(ctx, request.params.board_id, request.params.object_id, request.payload),
  }),
  object.delete({
    chain: ['canvas.boards.edit'],
    answers: { single: DELETED_OBJECT },
    description: 'Removes an object; connectors bound to it are unbound and stay where they were drawn',
    run: (request, ctx) => deleteObject(ctx, request.params.board_id, request.params.object_id),
  }),
  route({
    method: 'POST',
    path: `${B}/images`,
    chain: ['canvas.boards.edit'],
    answers: { single: IMAGE_UPLOAD },
    description: 'Gives a signed link (PUT, 15 minutes) to upload an image for an image object',
    validate: {
      params: params('board_id'),
      payload: Joi.object({ content_type: Joi.string().valid(...IMAGE_TYPES).required(), size_bytes: Joi.number().integer().min(1).max(IMAGE_MAX_BYTES) }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(await createImageUpload(ctx, request.params.board_id, request.payload));
    },
  }),
  route({
    method: 'GET',
    path: `${B}/images/{image_id}`,
    chain: ['canvas.boards.read'],
    answers: { single: IMAGE },
    description: 'Gives a signed link (five minutes) to download one of the board\'s images',
    validate: { params: params('board_id', 'image_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await readImage(ctx, request.params.board_id, request.params.image_id));
    },
  }),
  comments.list({
    chain: ['canvas.boards.read'],
    description: "Lists a board's comments, oldest first; object_id and resolved filter",
    query: Joi.listQuery({ object_id: objectId(), resolved: Joi.boolean() }),
    run: (request, ctx) => listComments(ctx, request.params.board_id, request.query),
  }),
  comments.post({
    chain: ['canvas.comments.create'],
    description: 'Comments on an object of the board',
    payload: Joi.object({ object_id: objectId().required(), body: Joi.string().trim().min(1).max(4000).required() }),
    async handler(request, ctx) {
      const comment = await createComment(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(presentComment(comment), { self: `/canvas/boards/${comment.board_id}/comments/${comment.id}` });
    },
  }),
  comment.patch({
    chain: ['canvas.comments.create'],
    description: 'UpdateComment: its author edits the body; anyone who may comment resolves or reopens it',
    payload: Joi.object({ body: Joi.string().trim().min(1).max(4000), resolved: Joi.boolean() }).or('body', 'resolved'),
    async handler(request, ctx) {
      return ctx.respond.single(presentComment(await updateComment(ctx, request.params.board_id, request.params.comment_id, request.payload)));
    },
  }),
  comment.delete({
    chain: [{ any_of: [{ check: 'comment_author' }, 'canvas.comments.manage'], message: 'Cannot delete this comment' }],
    answers: { single: DELETED },
    description: 'Deletes a comment (its author, or canvas.comments.manage)',
    run: (request, ctx) => deleteComment(ctx, request.params.board_id, request.params.comment_id),
  }),
  voteSessions.list({
    chain: ['canvas.boards.read'],
    description: "Lists a board's voting sessions, newest first",
    query: Joi.listQuery({ status: Joi.string().valid(...SESSION_STATUSES) }),
    run: (request, ctx) => listSessions(ctx, request.params.board_id, request.query),
  }),
  voteSessions.post({
    chain: ['canvas.votes.manage'],
    description: 'Starts a voting session (one open at a time per board): a budget of votes per member',
    payload: Joi.object({ title: Joi.string().trim().max(200).allow(''), votes_per_member: Joi.number().integer().min(1).max(100), allow_multiple: Joi.boolean() }),
    async handler(request, ctx) {
      const session = await startSession(ctx, request.params.board_id, request.payload ?? {});
      return ctx.respond.single(await presentSessionFor(ctx, session), { self: `/canvas/boards/${session.board_id}/vote-sessions/${session.id}` });
    },
  }),
  voteSessions.at('/{session_id}', { params: params('board_id', 'session_id') }).get({
    chain: ['canvas.boards.read'],
    description: "Reads a voting session: the caller's votes and budget left; the results once closed",
    async handler(request, ctx) {
      const board = await requireBoard(ctx, request.params.board_id);
      return ctx.respond.single(await presentSessionFor(ctx, await requireSession(ctx, board.id, request.params.session_id)));
    },
  }),
  voteSessions.at('/{session_id}/close', { params: params('board_id', 'session_id') }).post({
    chain: ['canvas.votes.manage'],
    description: 'Closes a voting session and shows its results',
    run: async (request, ctx) => presentSessionFor(ctx, await closeSession(ctx, request.params.board_id, request.params.session_id)),
  }),
  voteSessions.at('/{session_id}/votes', { params: params('board_id', 'session_id') }).post({
    chain: ['canvas.votes.create'],
    description: 'Casts one of the caller\'s votes on an object',
    payload: Joi.object({ object_id: objectId().required() }),
    run: (request, ctx) => castVote(ctx, request.params.board_id, request.params.session_id, request.payload.object_id),
  }),
  voteSessions.at('/{session_id}/votes/{object_id}', { params: params('board_id', 'session_id', 'object_id') }).delete({
    chain: ['canvas.votes.create'],
    description: "Takes back one of the caller's votes on the object",
    run: (request, ctx) => removeVote(ctx, request.params.board_id, request.params.session_id, request.params.object_id),
  }),
  route({
    method: 'GET',
    path: `${B}/exports`,
    chain: ['canvas.boards.read'],
    answers: { collection: EXPORT },
    description: "Lists the board's export targets (png, pdf, svg)",
    validate: { params: params('board_id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const rows = await listExports(ctx, request.params.board_id);
      return ctx.respond.collection(rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), rows.length);
    },
  }),
  boardExport.put({
    chain: ['canvas.boards.export'],
    description: 'Renders the board as it is now to the target (png, svg or pdf), replacing that target\'s previous export',
    run: (request, ctx) => renderExport(ctx, request.params.board_id, request.params.target as ExportTarget),
  }),
  boardExport.get({
    chain: ['canvas.boards.read'],
    description: 'Reads an export target, with a download link (five minutes)',
    run: (request, ctx) => readExport(ctx, request.params.board_id, request.params.target as ExportTarget),
  }),
  boardExport.delete({
    chain: ['canvas.boards.export'],
    answers: { single: DELETED_EXPORT },
    description: 'Deletes an export target and its file',
    run: (request, ctx) => deleteExport(ctx, request.params.board_id, request.params.target as ExportTarget),
  }),
];
