import { Joi } from '@wpk/sdk';
import { publicRoute, route, routeFamily } from '../kit.js';
import { APPROVALS, HALVES, PERIODS, REQUEST_STATUSES, UNITS, type Allocation, type LeaveRequest, type LeaveType } from '../models/index.js';
import { grant, grantedBy, presentAllocation, revoke } from '../services/allocations.js';
import { balancesOf, subjectOf } from '../services/balances.js';
import { outCsv, whoIsOut } from '../services/calendar.js';
import { createFeed, feedCalendar } from '../services/feeds.js';
import { ledgerOf } from '../services/ledger.js';
import { createRequest, deleteDraft, listRequests, moveRequest, presentRequests, requireRequest } from '../services/requests.js';
import { createType, deleteType, listTypes, presentType, requireType, updateType } from '../services/types.js';
import { ABSENCE, ALLOCATION, BALANCE, DELETED_ALLOCATION, DELETED_REQUEST, DELETED_TYPE, ENTRY, FEED, REQUEST, TYPE } from './answers.js';

const amount = () => Joi.number().min(0).max(10_000).precision(2);

const typeFields = {
  name: Joi.string().trim().min(1).max(200),
  unit: Joi.string().valid(...UNITS),
  paid: Joi.boolean(),
  needs_allocation: Joi.boolean(),
  allow_negative: Joi.boolean(),
  approval: Joi.string().valid(...APPROVALS),
  holidays_excluded: Joi.boolean(),
  carry_over_cap: amount().allow(null),
  default_allocation: amount(),
};

/** One page of a list the service answers whole. */
const page = <T>(all: T[], ctx: { page: { offset: number; limit: number } }) => ({ rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length });

const types = routeFamily('/leaves/types', { record: TYPE, present: (type: LeaveType) => presentType(type), links: (type) => ({ self: `/leaves/types/${type.id}` }) });
const type = types.at('/{type_id}', { params: Joi.idParams('type_id') });

const allocations = routeFamily('/leaves/allocations', { record: ALLOCATION, present: async (allocation: Allocation, ctx) => presentAllocation(allocation, await grantedBy(ctx, allocation.id)), links: (allocation) => ({ self: `/leaves/allocations/${allocation.id}` }) });

const requests = routeFamily('/leaves/requests', { record: REQUEST, present: async (request: LeaveRequest, ctx) => (await presentRequests(ctx, [request]))[0], links: (request) => ({ self: `/leaves/requests/${request.id}` }) });
const request = requests.at('/{request_id}', { params: Joi.idParams('request_id') });

const range = { from: Joi.calendarDate().required(), to: Joi.calendarDate().required(), department_id: Joi.id(), include_pending: Joi.boolean().default(false) };

/** Every route of the app. */
export const routes = [
  types.list({
    chain: ['leaves.types.read'],
    description: 'Lists leave types by name',
    query: Joi.listQuery(),
    run: async (_request, ctx) => page(await listTypes(ctx), ctx),
  }),
  types.post({
    chain: ['leaves.types.manage'],
    description: 'Adds a leave type: unit, paid, needs allocation, approval, holidays excluded, carry-over cap, default allocation of a new hire',
    payload: Joi.object({ ...typeFields, name: typeFields.name.required(), unit: typeFields.unit.required() }),
    run: (request, ctx) => createType(ctx, request.payload),
  }),
  type.get({ chain: ['leaves.types.read'], description: 'Reads a leave type', run: (request, ctx) => requireType(ctx, request.params.type_id) }),
  type.patch({
    chain: ['leaves.types.manage'],
    description: 'Changes the given fields of a leave type (its unit only while nothing uses it); emits type.updated',
    payload: Joi.object(typeFields).min(1),
    run: (request, ctx) => updateType(ctx, request.params.type_id, request.payload),
  }),
  type.delete({ chain: ['leaves.types.manage'], answers: { single: DELETED_TYPE }, description: 'Deletes a leave type nothing uses', run: (request, ctx) => deleteType(ctx, request.params.type_id) }),

  allocations.list({
    chain: ['leaves.requests.create'],
    description: "Lists allocations, newest first: the caller's own, or worker_id's (their manager, HR)",
    query: Joi.listQuery({ worker_id: Joi.id(), type_id: Joi.id() }),
    async run(request, ctx) {
      const worker = await subjectOf(ctx, request.query.worker_id as string | undefined);
      const where = { worker_id: worker.id, ...(request.query.type_id ? { type_id: request.query.type_id as string } : {}) };
      return ctx.db.allocations.findAndCountAll({ where, order: [['created_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
    },
  }),
  allocations.post({
    chain: ['leaves.allocations.manage'],
    description: 'Grants an allocation: a fixed amount, or an accrual plan (period monthly or yearly, prorated from starts_on, capped, expiring)',
    payload: Joi.object({
      worker_id: Joi.id().required(),
      type_id: Joi.id().required(),
      amount: amount().greater(0).required(),
      period: Joi.string().valid(...PERIODS).allow(null),
      cap: amount().greater(0).allow(null),
      starts_on: Joi.calendarDate(),
      expires_on: Joi.calendarDate().allow(null),
      note: Joi.string().trim().max(500).allow(''),
    }),
    run: (request, ctx) => grant(ctx, request.payload, ctx.member.id, ctx.member.mrn),
  }),
  allocations.at('/{allocation_id}', { params: Joi.idParams('allocation_id') }).delete({
    chain: ['leaves.allocations.manage'],
    answers: { single: DELETED_ALLOCATION },
    description: 'Withdraws an allocation: what it granted is taken back by a ledger entry (refused if a balance would go below zero)',
    run: (request, ctx) => revoke(ctx, request.params.allocation_id),
  }),

  requests.list({
    chain: ['leaves.requests.create'],
    description: "Lists the requests the caller sees (their own, their reports', every one for HR), latest span first",
    query: Joi.listQuery({ worker_id: Joi.id(), approver_id: Joi.id(), status: Joi.string().valid(...REQUEST_STATUSES), from: Joi.calendarDate(), to: Joi.calendarDate() }),
    run: (request, ctx) => listRequests(ctx, request.query),
  }),
  requests.post({
    chain: ['leaves.requests.create'],
    description: 'Asks for time off (submitted unless status is draft); the duration counts working time only; no two live requests of a worker share a half day',
    payload: Joi.object({
      type_id: Joi.id().required(),
      worker_id: Joi.id(),
      from_date: Joi.calendarDate().required(),
      from_half: Joi.string().valid(...HALVES),
      to_date: Joi.calendarDate(),
      to_half: Joi.string().valid(...HALVES),
      hours: Joi.number().greater(0).max(24).precision(2),
      note: Joi.string().trim().max(1000).allow(''),
      status: Joi.string().valid('draft', 'submitted'),
    }),
    run: (request, ctx) => createRequest(ctx, request.payload),
  }),
  route({
    method: 'GET',
    path: '/leaves/requests/export',
    chain: ['leaves.absences.read'],
    answers: { file: 'text/csv' },
    description: 'Who is out from from to to (approved requests; include_pending adds submitted ones) as CSV',
    validate: { query: Joi.object(range) },
    async handler(request, ctx) {
      const rows = await whoIsOut(ctx, request.query as never);
      return ctx.respond.file(outCsv(rows), { contentType: 'text/csv; charset=utf-8', filename: 'leaves.csv' });
    },
  }),
  request.get({ chain: ['leaves.requests.create'], description: 'Reads a request (its worker, their approver or manager, HR)', run: async (request, ctx) => (await requireRequest(ctx, request.params.request_id)).request }),
  request.patch({
    chain: ['leaves.requests.create'],
    description: 'Moves a request: submitted, approved or refused (with a reason) by the approver, withdrawn, cancelled',
    payload: Joi.object({ status: Joi.string().valid(...REQUEST_STATUSES).required(), reason: Joi.string().trim().max(1000).allow('') }),
    run: (request, ctx) => moveRequest(ctx, request.params.request_id, request.payload),
  }),
  request.delete({
    chain: ['leaves.requests.create'],
    answers: { single: DELETED_REQUEST },
    description: "Deletes a draft request: the worker's own, or one the caller drafted (409 once it is submitted or beyond)",
    run: (request, ctx) => deleteDraft(ctx, request.params.request_id),
  }),

  routeFamily('/leaves/balances', { record: BALANCE }).list({
    chain: ['leaves.requests.create'],
    description: "A worker's balance per type (the sum of their ledger), pending and available: the caller's own, or worker_id's",
    query: Joi.listQuery({ worker_id: Joi.id() }),
    run: async (request, ctx) => page(await balancesOf(ctx, await subjectOf(ctx, request.query.worker_id as string | undefined)), ctx),
  }),
  routeFamily('/leaves/ledger', { record: ENTRY }).list({
    chain: ['leaves.requests.create'],
    description: "A worker's ledger, oldest first, with the balance after each entry: the caller's own, or worker_id's",
    query: Joi.listQuery({ worker_id: Joi.id(), type_id: Joi.id() }),
    run: async (request, ctx) => page(await ledgerOf(ctx, (await subjectOf(ctx, request.query.worker_id as string | undefined)).id, request.query.type_id as string | undefined), ctx),
  }),
  routeFamily('/leaves/calendar', { record: ABSENCE }).list({
    chain: ['leaves.absences.read'],
    description: 'Who is out from from to to, optionally in one department (approved requests; include_pending adds submitted ones)',
    query: Joi.listQuery(range),
    run: async (request, ctx) => page(await whoIsOut(ctx, request.query as never), ctx),
  }),
  route({
    method: 'POST',
    path: '/leaves/feeds',
    chain: ['leaves.absences.read'],
    answers: { single: FEED },
    description: "Makes an iCal link of one worker's (the worker, their manager, HR) or one department's approved time off; the link is shown once",
    validate: { payload: Joi.object({ worker_id: Joi.id(), department_id: Joi.id() }) },
    handler: async (request, ctx) => ctx.respond.single(await createFeed(ctx, request.payload)),
  }),
  publicRoute({
    method: 'GET',
    path: '/leaves/feeds/{token}',
    answers: { file: 'text/calendar' },
    description: 'The iCal feed behind a link made by POST /leaves/feeds',
    validate: { params: Joi.object({ token: Joi.string().min(20).max(100).pattern(/^[A-Za-z0-9_-]+$/).required() }) },
    handler: async (request, ctx) => ctx.respond.file(await feedCalendar(ctx, request.params.token), { contentType: 'text/calendar; charset=utf-8', filename: 'leaves.ics' }),
  }),
];
