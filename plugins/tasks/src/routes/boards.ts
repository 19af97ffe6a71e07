import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { createBoard, deleteBoard, listBoards, renameLane, requireBoard, updateBoard } from '../services/boards.js';
import { presentBoard } from '../services/present.js';
import { grid, id, lanes, q, title } from './schemas.js';
import { BOARD, DELETED_BOARD, RENAMED_BOARD } from './answers.js';

const boards = routeFamily('/boards', { record: BOARD });
const board = boards.at('/{board_id}', { params: Joi.idParams('board_id') });

/** Boards: list, create (optionally from a template), read, update or archive, delete, rename a lane. */
export const boardRoutes = [
  boards.list({
    chain: ['tasks.boards.read'],
    description: 'Lists live boards (archived ones with deleted=true), oldest first',
    query: Joi.listQuery({ q: q(), is_template: Joi.boolean(), deleted: Joi.boolean() }),
    async handler(request, ctx) {
      const { rows, count } = await listBoards(ctx, request.query);
      return ctx.respond.collection(rows.map(presentBoard), count);
    },
  }),
  boards.post({
    chain: ['tasks.boards.create'],
    description: 'Creates a board, optionally from a template board',
    payload: Joi.object({
      title: title().required(),
      description: Joi.string().max(2000).allow(''),
      template_id: id(),
      is_template: Joi.boolean(),
      grid: grid(),
      lanes: lanes(),
    }),
    async handler(request, ctx) {
      const board = await createBoard(ctx, request.payload);
      return ctx.respond.single(presentBoard(board), { self: `/boards/${board.id}` });
    },
  }),
  board.get({
    chain: ['tasks.boards.read'],
    description: 'Reads a board (archived or not)',
    async handler(request, ctx) {
      const board = await requireBoard(ctx, request.params.board_id);
      return ctx.respond.single(presentBoard(board), { tasks: `/tasks?board_id=${board.id}`, topics: `/boards/${board.id}/topics`, members: `/boards/${board.id}/members` });
    },
  }),
  board.put({
    chain: ['tasks.boards.edit'],
    description: 'Updates a board; deleted: true archives it, false restores it',
    payload: Joi.object({
      deleted: Joi.boolean(),
      title: title(),
      description: Joi.string().max(2000).allow(''),
      grid: grid(),
      lanes: lanes(),
    }),
    async handler(request, ctx) {
      const board = await updateBoard(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(presentBoard(board), { self: `/boards/${board.id}` });
    },
  }),
  board.delete({
    chain: ['tasks.boards.delete'],
    answers: { single: DELETED_BOARD },
    description: "Deletes a board and its tasks; confirm_key must equal the board's title",
    payload: Joi.object({ confirm_key: Joi.string().min(1).required() }),
    run: (request, ctx) => deleteBoard(ctx, request.params.board_id, request.payload.confirm_key),
  }),
  board.at('/columns').patch({
    chain: ['tasks.boards.manage'],
    answers: { single: RENAMED_BOARD },
    description: 'Renames a lane and every task in it',
    payload: Joi.object({ old_name: Joi.string().min(1).required(), new_name: Joi.string().trim().min(1).max(80).required() }),
    async handler(request, ctx) {
      const { board, task_ids } = await renameLane(ctx, request.params.board_id, request.payload.old_name, request.payload.new_name);
      return ctx.respond.single({ ...presentBoard(board), renamed_task_ids: task_ids }, { self: `/boards/${board.id}` });
    },
  }),
];
