import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { createBoard, deleteBoard, listBoards, renameLane, requireBoard, updateBoard } from '../services/boards.js';
import { presentBoard } from '../services/present.js';
import { grid, id, lanes, q, title } from './schemas.js';
import { BOARD, DELETED_BOARD, RENAMED_BOARD } from './answers.js';

/** Boards: list, create (optionally from a template), read, update or archive, delete, rename a lane. */
export const boardRoutes = [
  route({
    method: 'GET',
    path: '/boards',
    chain: ['tasks.boards.read'],
    answers: { collection: BOARD },
    description: 'Lists live boards (archived ones with deleted=true), oldest first',
    validate: { query: Joi.listQuery({ q: q(), is_template: Joi.boolean(), deleted: Joi.boolean() }) },
    async handler(request, ctx) {
      const { rows, count } = await listBoards(ctx, request.query);
      return ctx.respond.collection(rows.map(presentBoard), count);
    },
  }),
  route({
    method: 'POST',
    path: '/boards',
    chain: ['tasks.boards.create'],
    answers: { single: BOARD },
    description: 'Creates a board, optionally from a template board',
    validate: {
      payload: Joi.object({
        title: title().required(),
        description: Joi.string().max(2000).allow(''),
        template_id: id(),
        is_template: Joi.boolean(),
        grid: grid(),
        lanes: lanes(),
      }),
    },
    async handler(request, ctx) {
      const board = await createBoard(ctx, request.payload);
      return ctx.respond.single(presentBoard(board), { self: `/boards/${board.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/boards/{board_id}',
    chain: ['tasks.boards.read'],
    answers: { single: BOARD },
    description: 'Reads a board (archived or not)',
    validate: { params: Joi.idParams('board_id') },
    async handler(request, ctx) {
      const board = await requireBoard(ctx, request.params.board_id);
      return ctx.respond.single(presentBoard(board), { tasks: `/tasks?board_id=${board.id}`, topics: `/boards/${board.id}/topics`, members: `/boards/${board.id}/members` });
    },
  }),
  route({
    method: 'PUT',
    path: '/boards/{board_id}',
    chain: ['tasks.boards.edit'],
    answers: { single: BOARD },
    description: 'Updates a board; deleted: true archives it, false restores it',
    validate: {
      params: Joi.idParams('board_id'),
      payload: Joi.object({
        deleted: Joi.boolean(),
        title: title(),
        description: Joi.string().max(2000).allow(''),
        grid: grid(),
        lanes: lanes(),
      }),
    },
    async handler(request, ctx) {
      const board = await updateBoard(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(presentBoard(board), { self: `/boards/${board.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/boards/{board_id}',
    chain: ['tasks.boards.delete'],
    answers: { single: DELETED_BOARD },
    description: "Deletes a board and its tasks; confirm_key must equal the board's title",
    validate: { params: Joi.idParams('board_id'), payload: Joi.object({ confirm_key: Joi.string().min(1).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteBoard(ctx, request.params.board_id, request.payload.confirm_key));
    },
  }),
  route({
    method: 'PATCH',
    path: '/boards/{board_id}/columns',
    chain: ['tasks.boards.manage'],
    answers: { single: RENAMED_BOARD },
    description: 'Renames a lane and every task in it',
    validate: {
      params: Joi.idParams('board_id'),
      payload: Joi.object({ old_name: Joi.string().min(1).required(), new_name: Joi.string().trim().min(1).max(80).required() }),
    },
    async handler(request, ctx) {
      const { board, task_ids } = await renameLane(ctx, request.params.board_id, request.payload.old_name, request.payload.new_name);
      return ctx.respond.single({ ...presentBoard(board), renamed_task_ids: task_ids }, { self: `/boards/${board.id}` });
    },
  }),
];
