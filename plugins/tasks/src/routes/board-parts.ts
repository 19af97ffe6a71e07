import { Joi } from '@wpk/sdk';
import { route, routeFamily } from '../kit.js';
import { addBoardMember, changeBoardMemberRole, listBoardMembers, removeBoardMember } from '../services/board-members.js';
import { filterOptions, listTaskFilters } from '../services/task-filters.js';
import { createTopic, deleteTopic, listTopics, updateTopic } from '../services/topics.js';
import { boardRole, color, id, q } from './schemas.js';
import { BOARD_MEMBER, DELETED_TOPIC, FILTER_OPTION, REMOVED_BOARD_MEMBER, TASK_FILTER, TOPIC } from './answers.js';

const topics = routeFamily('/boards/{board_id}/topics', { params: Joi.idParams('board_id'), record: TOPIC });
const topic = topics.at('/{topic_id}', { params: Joi.idParams('board_id', 'topic_id') });
const members = routeFamily('/boards/{board_id}/members', { params: Joi.idParams('board_id'), record: BOARD_MEMBER });
const member = members.at('/{member_id}', { params: Joi.idParams('board_id', 'member_id') });

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
  topics.list({
    chain: ['tasks.topics.read'],
    description: "The board's topics by name; q keeps names containing it",
    query: Joi.listQuery({ q: q() }),
    run: (request, ctx) => listTopics(ctx, request.params.board_id, request.query.q as string | undefined),
  }),
  topics.post({
    chain: ['tasks.topics.create'],
    description: 'Creates a topic on the board',
    payload: Joi.object({ name: Joi.string().trim().min(1).max(80).required(), color: color().allow(null) }),
    async handler(request, ctx) {
      const topic = await createTopic(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(topic, { self: `/boards/${topic.board_id}/topics/${topic.id}` });
    },
  }),
  topic.patch({
    chain: ['tasks.topics.edit'],
    description: 'Renames or recolours a topic',
    payload: Joi.object({ name: Joi.string().trim().min(1).max(80), color: color().allow(null) }),
    async handler(request, ctx) {
      const topic = await updateTopic(ctx, request.params.board_id, request.params.topic_id, request.payload);
      return ctx.respond.single(topic);
    },
  }),
  topic.delete({
    chain: ['tasks.topics.delete'],
    answers: { single: DELETED_TOPIC },
    description: 'Deletes a topic; its tasks remain, with no topic',
    run: (request, ctx) => deleteTopic(ctx, request.params.board_id, request.params.topic_id),
  }),
  members.list({
    chain: ['tasks.members.read'],
    description: "The board's members and their roles",
    query: Joi.listQuery(),
    run: (request, ctx) => listBoardMembers(ctx, request.params.board_id),
  }),
  members.post({
    chain: ['tasks.members.manage'],
    description: 'Adds a workspace member to the board with a role',
    payload: Joi.object({ member_id: Joi.memberId().required(), role: boardRole().required() }),
    async handler(request, ctx) {
      const member = await addBoardMember(ctx, request.params.board_id, request.payload);
      return ctx.respond.single(member, { self: `/boards/${member.board_id}/members/${member.member_id}` });
    },
  }),
  member.patch({
    chain: ['tasks.members.manage'],
    description: "Changes a board member's role",
    payload: Joi.object({ role: boardRole().required() }),
    run: (request, ctx) => changeBoardMemberRole(ctx, request.params.board_id, request.params.member_id, request.payload.role),
  }),
  member.delete({
    chain: ['tasks.members.manage'],
    answers: { single: REMOVED_BOARD_MEMBER },
    description: 'Removes a member from the board',
    run: (request, ctx) => removeBoardMember(ctx, request.params.board_id, request.params.member_id),
  }),
];
