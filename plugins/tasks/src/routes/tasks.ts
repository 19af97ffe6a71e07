import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
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

/** Tasks: list, create, read, update, delete; assign, complete, move, comment, deliverables. */
export const taskRoutes = [
  route({
    method: 'GET',
    path: '/tasks',
    chain: ['tasks.tasks.read'],
    answers: { collection: TASK },
    description: 'Lists tasks, oldest first, filtered by any of the query parameters',
    validate: {
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
    },
    async handler(request, ctx) {
      const { rows, count } = await listTasks(ctx, request.query);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/tasks',
    chain: ['tasks.tasks.create'],
    answers: { single: TASK },
    description: 'Creates a task on a board, or in the incubator when board_id is absent',
    validate: { payload: Joi.object({ ...taskFields, board_id: id().allow(null), assignee_ids: Joi.array().items(Joi.memberId()).max(50) }) },
    async handler(request, ctx) {
      const task = await createTask(ctx, request.payload);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  route({
    method: 'GET',
    path: '/tasks/{id}',
    chain: ['tasks.tasks.read'],
    answers: { single: TASK },
    description: 'Reads a task',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      const task = await presentOne(ctx, await requireTask(ctx, request.params.id));
      return ctx.respond.single(task, { ...taskLinks(task.id), ...(task.board_id ? { board: `/boards/${task.board_id}` } : {}) });
    },
  }),
  route({
    method: 'PATCH',
    path: '/tasks/{id}',
    chain: ['tasks.tasks.edit'],
    answers: { single: TASK },
    description: 'Updates a task: dates (due not before start), blocked_by (no cycle), lane, topic, ...',
    validate: { params: Joi.idParams('id'), payload: Joi.object(taskFields) },
    async handler(request, ctx) {
      const task = await updateTask(ctx, request.params.id, request.payload);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/tasks/{id}',
    chain: [{ any_of: [{ check: 'task_creator' }, 'tasks.tasks.delete'], message: 'Cannot delete this task' }],
    answers: { single: DELETED },
    description: 'Deletes a task: its creator may, otherwise tasks.tasks.delete',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteTask(ctx, request.params.id));
    },
  }),
  route({
    method: 'POST',
    path: '/tasks/{id}/assignees',
    chain: ['tasks.tasks.assign'],
    answers: { single: TASK },
    description: 'Assigns a member to the task',
    validate: { params: Joi.idParams('id'), payload: Joi.object({ member_id: Joi.memberId().required() }) },
    async handler(request, ctx) {
      const task = await assignMember(ctx, request.params.id, request.payload.member_id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/tasks/{id}/assignees/{member_id}',
    chain: ['tasks.tasks.assign'],
    answers: { single: TASK },
    description: 'Unassigns a member from the task',
    validate: { params: Joi.idParams('id', 'member_id') },
    async handler(request, ctx) {
      const task = await unassignMember(ctx, request.params.id, request.params.member_id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  route({
    method: 'POST',
    path: '/tasks/{id}/completion',
    chain: ['tasks.tasks.edit'],
    answers: { single: TASK },
    description: 'Completes the task',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      const task = await completeTask(ctx, request.params.id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/tasks/{id}/completion',
    chain: ['tasks.tasks.edit'],
    answers: { single: TASK },
    description: 'Reopens a completed task',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      const task = await reopenTask(ctx, request.params.id);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  route({
    method: 'PUT',
    path: '/tasks/{id}/board',
    chain: ['tasks.tasks.edit'],
    answers: { single: TASK },
    description: 'Moves the task to another board (optionally into a lane)',
    validate: { params: Joi.idParams('id'), payload: Joi.object({ board_id: id().required(), lane: Joi.string().min(1).max(80) }) },
    async handler(request, ctx) {
      const task = await moveTask(ctx, request.params.id, request.payload);
      return ctx.respond.single(task, taskLinks(task.id));
    },
  }),
  route({
    method: 'GET',
    path: '/tasks/{id}/comments',
    chain: ['tasks.tasks.read'],
    answers: { collection: COMMENT },
    description: "The task's comments, oldest first",
    validate: { params: Joi.idParams('id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await listComments(ctx, request.params.id);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/tasks/{id}/comments',
    chain: ['tasks.tasks.comment'],
    answers: { single: COMMENT },
    description: 'Comments on the task',
    validate: { params: Joi.idParams('id'), payload: Joi.object({ body: Joi.string().trim().min(1).max(5000).required() }) },
    async handler(request, ctx) {
      const comment = await addComment(ctx, request.params.id, request.payload.body);
      return ctx.respond.single(comment, { self: `/tasks/${comment.task_id}/comments`, task: `/tasks/${comment.task_id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/tasks/{id}/deliverables',
    chain: ['tasks.tasks.read'],
    answers: { collection: DELIVERABLE },
    description: "The task's deliverables, oldest first",
    validate: { params: Joi.idParams('id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await listDeliverables(ctx, request.params.id);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/tasks/{id}/deliverables',
    chain: ['tasks.tasks.edit'],
    answers: { single: DELIVERABLE },
    description: 'Adds a deliverable to the task',
    validate: { params: Joi.idParams('id'), payload: Joi.object({ title: title().required(), url: Joi.string().uri({ scheme: ['http', 'https'] }).max(2000).allow(null) }) },
    async handler(request, ctx) {
      const deliverable = await addDeliverable(ctx, request.params.id, request.payload);
      return ctx.respond.single(deliverable, { self: `/tasks/${deliverable.task_id}/deliverables`, task: `/tasks/${deliverable.task_id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/tasks/{id}/deliverables/{deliverable_id}/delivery',
    chain: ['tasks.tasks.edit'],
    answers: { single: DELIVERABLE },
    description: 'Marks a deliverable delivered',
    validate: { params: Joi.idParams('id', 'deliverable_id') },
    async handler(request, ctx) {
      const deliverable = await deliver(ctx, request.params.id, request.params.deliverable_id);
      return ctx.respond.single(deliverable, { self: `/tasks/${deliverable.task_id}/deliverables`, task: `/tasks/${deliverable.task_id}` });
    },
  }),
];
