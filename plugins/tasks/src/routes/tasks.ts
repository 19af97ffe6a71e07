import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { addComment, addDeliverable, deliver, listComments, listDeliverables } from '../services/task-activity.js';
import { assignMember, completeTask, createTask, deleteTask, listTasks, moveTask, presentOne, reopenTask, requireTask, unassignMember, updateTask } from '../services/tasks.js';
import { id, isoDate, priority, q, title } from './schemas.js';
import { COMMENT, DELETED, DELIVERABLE, TASK } from './answers.js';

/** The fields of a task, as both POST /tasks and PATCH /tasks/{id} take them. */
const taskFields = {
  title: title(),
  description: Joi.string().max(10000).allow(''),
  lane: Joi.string().min(1).max(80).allow(null),
  topic_id: id().allow(null),
  schedule_id: id().allow(null),
  priority: priority(),
  start_date: isoDate().allow(null),
  due_date: isoDate().allow(null),
  blocked_by: id().allow(null),
};

const taskLinks = (taskId: string) => ({ self: `/tasks/${taskId}`, comments: `/tasks/${taskId}/comments`, deliverables: `/tasks/${taskId}/deliverables` });

const tasks = routeFamily('/tasks', { record: TASK });
const task = tasks.at('/{id}', { params: Joi.idParams('id') });
const completion = task.at('/completion');
const comments = task.at('/comments', { record: COMMENT });
const deliverables = task.at('/deliverables', { record: DELIVERABLE });

/** Tasks: list, create, read, update, delete; assign, complete, move, comment, deliverables. */
export const taskRoutes = [
  tasks.list({
    chain: ['tasks.tasks.read'],
    description: 'Lists tasks, oldest first, filtered by any of the query parameters',
    query: Joi.listQuery({
      board_id: id(),
      incubator: Joi.boolean(),
      lane: Joi.string().min(1).max(80),
      assignee_id: Joi.memberId({ former: true }),
      topic_id: id(),
      schedule_id: id(),
      priority: priority(),
      status: Joi.string().valid('open', 'completed'),
      creator_id: Joi.memberId({ former: true }),
      blocked_by: id(),
      q: q(),
      due_before: isoDate(),
      due_after: isoDate(),
    }),
    run: (request, ctx) => listTasks(ctx, request.query),
  }),
  tasks.post({
    chain: ['tasks.tasks.create'],
    description: 'Creates a task on a board, or in the incubator when board_id is absent',
    payload: Joi.object({ ...taskFields, board_id: id().allow(null), assignee_ids: Joi.array().items(Joi.memberId()).max(50), source_mrn: Joi.mrn().description("What the task is for: another app's record (a CRM deal, lead, contact or company shows it on its timeline)") }),
    async handler(request, ctx) {
      const task = await createTask(ctx, request.payload);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  task.get({
    chain: ['tasks.tasks.read'],
    description: 'Reads a task',
    async handler(request, ctx) {
      const task = await presentOne(ctx, await requireTask(ctx, request.params.id));
      return ctx.respond.single(task, { ...taskLinks(task.id), ...(task.board_id ? { board: `/boards/${task.board_id}` } : {}) });
    },
  }),
  task.patch({
    chain: ['tasks.tasks.edit'],
    description: 'Updates a task: dates (due not before start), blocked_by (no cycle), lane, topic, ...',
    payload: Joi.object(taskFields),
    async handler(request, ctx) {
      const task = await updateTask(ctx, request.params.id, request.payload);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  task.delete({
    chain: [{ any_of: [{ check: 'task_creator' }, 'tasks.tasks.delete'], message: 'Cannot delete this task' }],
    answers: { single: DELETED },
    description: 'Deletes a task: its creator may, otherwise tasks.tasks.delete',
    run: (request, ctx) => deleteTask(ctx, request.params.id),
  }),
  task.at('/assignees').post({
    chain: ['tasks.tasks.assign'],
    description: 'Assigns a member to the task',
    payload: Joi.object({ member_id: Joi.memberId().required() }),
    async handler(request, ctx) {
      const task = await assignMember(ctx, request.params.id, request.payload.member_id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  task.at('/assignees/{member_id}', { params: Joi.idParams('id', 'member_id') }).delete({
    chain: ['tasks.tasks.assign'],
    description: 'Unassigns a member from the task',
    async handler(request, ctx) {
      const task = await unassignMember(ctx, request.params.id, request.params.member_id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  completion.post({
    chain: ['tasks.tasks.edit'],
    description: 'Completes the task',
    async handler(request, ctx) {
      const task = await completeTask(ctx, request.params.id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  completion.delete({
    chain: ['tasks.tasks.edit'],
    description: 'Reopens a completed task',
    async handler(request, ctx) {
      const task = await reopenTask(ctx, request.params.id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  task.at('/board').put({
    chain: ['tasks.tasks.edit'],
    description: 'Moves the task to another board (optionally into a lane)',
    payload: Joi.object({ board_id: id().required(), lane: Joi.string().min(1).max(80) }),
    async handler(request, ctx) {
      const task = await moveTask(ctx, request.params.id, request.payload);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  comments.list({
    chain: ['tasks.tasks.read'],
    description: "The task's comments, oldest first",
    query: Joi.listQuery(),
    run: (request, ctx) => listComments(ctx, request.params.id),
  }),
  comments.post({
    chain: ['tasks.tasks.comment'],
    description: 'Comments on the task',
    payload: Joi.object({ body: Joi.string().trim().min(1).max(5000).required() }),
    async handler(request, ctx) {
      const comment = await addComment(ctx, request.params.id, request.payload.body);
      return ctx.respond.single(comment, { self: `/tasks/${comment.task_id}/comments`, task: `/tasks/${comment.task_id}` });
    },
  }),
  deliverables.list({
    chain: ['tasks.tasks.read'],
    description: "The task's deliverables, oldest first",
    query: Joi.listQuery(),
    run: (request, ctx) => listDeliverables(ctx, request.params.id),
  }),
  deliverables.post({
    chain: ['tasks.tasks.edit'],
    description: 'Adds a deliverable to the task',
    payload: Joi.object({ title: title().required(), url: Joi.string().uri({ scheme: ['http', 'https'] }).max(2000).allow(null) }),
    async handler(request, ctx) {
      const deliverable = await addDeliverable(ctx, request.params.id, request.payload);
      return ctx.respond.single(deliverable, { self: `/tasks/${deliverable.task_id}/deliverables`, task: `/tasks/${deliverable.task_id}` });
    },
  }),
  deliverables.at('/{deliverable_id}/delivery', { params: Joi.idParams('id', 'deliverable_id') }).post({
    chain: ['tasks.tasks.edit'],
    description: 'Marks a deliverable delivered',
    async handler(request, ctx) {
      const deliverable = await deliver(ctx, request.params.id, request.params.deliverable_id);
      return ctx.respond.single(deliverable, { self: `/tasks/${deliverable.task_id}/deliverables`, task: `/tasks/${deliverable.task_id}` });
    },
  }),
];
