import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { clearBoard, pullTasks, returnTask } from '../services/incubator.js';
import { id } from './schemas.js';
import { CLEARED_BOARD, TASK } from './answers.js';

const EXACTLY_ONE = 'body must contain exactly one of task_ids or schedule_id';

const tasks = routeFamily('/boards/{board_id}/tasks', { params: Joi.idParams('board_id'), record: CLEARED_BOARD });

/** The incubator: pull tasks onto a board, clear a board, return one task. */
export const incubatorRoutes = [
  tasks.post({
    chain: ['tasks.boards.manage'],
    answers: { single: Joi.array().items(TASK).description('The tasks pulled onto the board') },
    description: 'Pulls incubator tasks onto the board: the task_ids given, or every incubator task of schedule_id',
    payload: Joi.object({ task_ids: Joi.array().items(id()).min(1).max(500), schedule_id: id() })
      .xor('task_ids', 'schedule_id')
      .messages({ 'object.missing': EXACTLY_ONE, 'object.xor': EXACTLY_ONE }),
    async handler(request, ctx) {
      const pulled = await pullTasks(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(pulled, { board: `/boards/${request.params.board_id}` });
    },
  }),
  tasks.delete({
    chain: ['tasks.boards.manage', 'tasks.tasks.delete'],
    description: "Clears the board: scheduled=false deletes its unplanned tasks, scheduled=true its planned ones",
    query: Joi.object({ scheduled: Joi.boolean().required() }),
    run: (request, ctx) => clearBoard(ctx, request.params.board_id, request.query.scheduled as boolean),
  }),
  tasks.at('/{task_id}', { params: Joi.idParams('board_id', 'task_id') }).delete({
    chain: ['tasks.boards.manage'],
    answers: { single: TASK },
    description: 'Returns the task to the incubator',
    async handler(request, ctx) {
      const task = await returnTask(ctx, request.params.board_id, request.params.task_id);
      return ctx.respond.single(task, { self: `/tasks/${task.id}` });
    },
  }),
];
