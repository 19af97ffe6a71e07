import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { addBoardMember, changeBoardMemberRole, listBoardMembers, removeBoardMember } from '../services/board-members.js';
import { filterOptions, listTaskFilters } from '../services/task-filters.js';
import { createTopic, deleteTopic, listTopics, updateTopic } from '../services/topics.js';
import { boardRole, color, id, q } from './schemas.js';
import { BOARD_MEMBER, DELETED_TOPIC, FILTER_OPTION, REMOVED_BOARD_MEMBER, TASK_FILTER, TOPIC } from './answers.js';

/** A board's task filters, topics and members. */
export const boardPartRoutes = [
  route({
    method: 'GET',
    path: '/boards/{board_id}/task-filters',
    chain: ['tasks.tasks.read'],
    answers: { collection: TASK_FILTER },
    description: "Fields the board's tasks can be filtered by (each a query parameter of GET /tasks)",
    validate: { params: Joi.idParams('board_id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const filters = await listTaskFilters(ctx, request.params.board_id);
      return ctx.respond.collection(filters.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), filters.length);
    },
  }),
  route({
    method: 'GET',
    path: '/boards/{board_id}/task-filters/{key}/options',
    chain: ['tasks.tasks.read'],
    answers: { collection: FILTER_OPTION },
    description: "One filter's values on the board, with task counts; q narrows by label",
    validate: { params: Joi.object({ board_id: id().required(), key: Joi.string().max(40).required() }), query: Joi.listQuery({ q: q() }) },
    async handler(request, ctx) {
      const options = await filterOptions(ctx, request.params.board_id, request.params.key, request.query.q as string | undefined);
      return ctx.respond.collection(options.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), options.length);
    },
  }),
  route({
    method: 'GET',
    path: '/boards/{board_id}/topics',
    chain: ['tasks.topics.read'],
    answers: { collection: TOPIC },
    description: "The board's topics by name; q keeps names containing it",
    validate: { params: Joi.idParams('board_id'), query: Joi.listQuery({ q: q() }) },
    async handler(request, ctx) {
      const { rows, count } = await listTopics(ctx, request.params.board_id, request.query.q as string | undefined);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/boards/{board_id}/topics',
    chain: ['tasks.topics.create'],
    answers: { single: TOPIC },
    description: 'Creates a topic on the board',
    validate: { params: Joi.idParams('board_id'), payload: Joi.object({ name: Joi.string().trim().min(1).max(80).required(), color: color().allow(null) }) },
    async handler(request, ctx) {
      const topic = await createTopic(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(topic, { self: `/boards/${topic.board_id}/topics/${topic.id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/boards/{board_id}/topics/{topic_id}',
    chain: ['tasks.topics.edit'],
    answers: { single: TOPIC },
    description: 'Renames or recolours a topic',
    validate: { params: Joi.idParams('board_id', 'topic_id'), payload: Joi.object({ name: Joi.string().trim().min(1).max(80), color: color().allow(null) }) },
    async handler(request, ctx) {
      const topic = await updateTopic(ctx, request.params.board_id, request.params.topic_id, request.payload);
      return ctx.respond.single(topic);
    },
  }),
  route({
    method: 'DELETE',
    path: '/boards/{board_id}/topics/{topic_id}',
    chain: ['tasks.topics.delete'],
    answers: { single: DELETED_TOPIC },
    description: 'Deletes a topic; its tasks remain, with no topic',
    validate: { params: Joi.idParams('board_id', 'topic_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteTopic(ctx, request.params.board_id, request.params.topic_id));
    },
  }),
  route({
    method: 'GET',
    path: '/boards/{board_id}/members',
    chain: ['tasks.members.read'],
    answers: { collection: BOARD_MEMBER },
    description: "The board's members and their roles",
    validate: { params: Joi.idParams('board_id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await listBoardMembers(ctx, request.params.board_id);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/boards/{board_id}/members',
    chain: ['tasks.members.manage'],
    answers: { single: BOARD_MEMBER },
    description: 'Adds a workspace member to the board with a role',
    validate: { params: Joi.idParams('board_id'), payload: Joi.object({ member_id: Joi.memberId().required(), role: boardRole().required() }) },
    async handler(request, ctx) {
      const member = await addBoardMember(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(member, { self: `/boards/${member.board_id}/members/${member.member_id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/boards/{board_id}/members/{member_id}',
    chain: ['tasks.members.manage'],
    answers: { single: BOARD_MEMBER },
    description: "Changes a board member's role",
    validate: { params: Joi.idParams('board_id', 'member_id'), payload: Joi.object({ role: boardRole().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await changeBoardMemberRole(ctx, request.params.board_id, request.params.member_id, request.payload.role));
    },
  }),
  route({
    method: 'DELETE',
    path: '/boards/{board_id}/members/{member_id}',
    chain: ['tasks.members.manage'],
    answers: { single: REMOVED_BOARD_MEMBER },
    description: 'Removes a member from the board',
    validate: { params: Joi.idParams('board_id', 'member_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await removeBoardMember(ctx, request.params.board_id, request.params.member_id));
    },
  }),
];
