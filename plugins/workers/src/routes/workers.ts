import { Joi, MEMBER_REFERENCE_META } from '@wpk/sdk';
import { route, routeFamily } from '../kit.js';
import { EMPLOYMENT_TYPES, WORKER_STATUSES, type Worker } from '../models/index.js';
import { exportWorkers, importWorkers } from '../services/csv.js';
import { listLocations, presentLocation } from '../services/locations.js';
import { orgChart, reportsOf } from '../services/org.js';
import { presentHistory, presentWorker } from '../services/present.js';
import { changeStatus, createWorker, deleteWorker, historyOf, listWorkers, requireWorker, rowOn, today, updateWorker } from '../services/workers.js';
import { DELETED_WORKER, HISTORY_ROW, IMPORT_RESULT, LOCATION, ORG_CHART, REPORTS, WORKER } from './answers.js';

const params = Joi.idParams('worker_id');
const optionalText = (max: number) => Joi.string().trim().max(max).allow('', null);

/** A settings location MRN (whether the app's copy knows it is the service's check). */
const locationMrnField = Joi.string().max(200).pattern(/^mrn:settings:location:[^:\s]+$/).messages({ 'string.pattern.base': '{#label} must be a settings location MRN: mrn:settings:location: and its id' });

/** The fields a create or an update takes. */
const fields = {
  name: Joi.string().trim().min(1).max(200),
  work_email: Joi.string().trim().email({ tlds: false }).max(320),
  title: Joi.string().trim().max(200).allow(''),
  department_id: Joi.id().allow(null),
  // A worker's id (a manager need not be a member): marked so the platform's member-reference guard does not take it for one.
  manager_id: Joi.id().allow(null).meta({ [MEMBER_REFERENCE_META]: false }),
  location_mrn: locationMrnField.allow(null),
  start_date: Joi.calendarDate().allow(null),
  employment_type: Joi.string().valid(...EMPLOYMENT_TYPES),
  member_id: Joi.memberId().allow(null),
  birth_date: Joi.calendarDate().allow(null),
  personal_email: Joi.string().trim().email({ tlds: false }).max(320).allow('', null),
  personal_phone: optionalText(50),
  salary_band: optionalText(50),
};

/** Whether the caller sees private fields. */
const seesPrivate = (ctx: { permissions: { has(key: string): boolean } }) => ctx.permissions.has('workers.private_fields.read');

const workers = routeFamily('/workers', { record: WORKER, present: (worker: Worker, ctx) => presentWorker(worker, seesPrivate(ctx)), links: (worker) => ({ self: `/workers/${worker.id}` }) });
const worker = workers.at('/{worker_id}', { params });

/** Workers: list, create, read, update, delete, lifecycle, history, reports and the org chart. */
export const workerRoutes = [
  workers.list({
    chain: ['workers.workers.read'],
    description: 'Lists workers by name; q matches name, work e-mail or title; filters by department, manager, status and location',
    query: Joi.listQuery({ q: Joi.string().max(200).allow(''), department_id: Joi.id(), manager_id: Joi.id(), status: Joi.string().valid(...WORKER_STATUSES), location_mrn: locationMrnField }),
    run: (request, ctx) => listWorkers(ctx, request.query),
  }),
  workers.post({
    chain: ['workers.workers.create'],
    description: 'Adds a worker in onboarding, linked to the member with the same e-mail unless member_id says otherwise',
    payload: Joi.object({ ...fields, name: fields.name.required(), work_email: fields.work_email.required() }),
    run: (request, ctx) => createWorker(ctx, request.payload),
  }),
  route({
    method: 'GET',
    path: '/workers/locations',
    chain: ['workers.workers.read'],
    answers: { collection: LOCATION },
    description: "The locations a worker may be given: the app's copy of the Settings app's locations (deleted ones left out), by name; q matches the name",
    validate: { query: Joi.listQuery({ q: Joi.string().max(200).allow('') }) },
    async handler(request, ctx) {
      const { rows, count } = await listLocations(ctx, request.query.q as string | undefined);
      return ctx.respond.collection(rows.map(presentLocation), count);
    },
  }),
  route({
    method: 'GET',
    path: '/workers/export',
    chain: ['workers.workers.read'],
    answers: { file: 'text/csv' },
    description: 'Every worker as CSV (no private field): department by name, manager by work e-mail',
    async handler(_request, ctx) {
      return ctx.respond.file(await exportWorkers(ctx), { contentType: 'text/csv; charset=utf-8', filename: 'workers.csv' });
    },
  }),
  route({
    method: 'POST',
    path: '/workers/imports',
    chain: ['workers.workers.create'],
    answers: { single: IMPORT_RESULT },
    description: 'Imports workers from CSV; dry_run lists every bad cell by line and column; nothing is imported unless every row is valid',
    validate: { payload: Joi.object({ csv: Joi.string().min(1).max(2_000_000).required(), dry_run: Joi.boolean().default(false) }) },
    async handler(request, ctx) {
      return ctx.respond.single(await importWorkers(ctx, request.payload.csv, request.payload.dry_run));
    },
  }),
  route({
    method: 'GET',
    path: '/workers/org-chart',
    chain: ['workers.workers.read'],
    answers: { single: ORG_CHART },
    description: 'The org chart from root_id (default: every worker without a manager), depth-first',
    validate: { query: Joi.object({ root_id: Joi.id() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await orgChart(ctx, request.query.root_id as string | undefined));
    },
  }),
  worker.get({
    chain: ['workers.workers.read'],
    description: 'Reads a worker (private fields only with workers.private_fields.read)',
    run: (request, ctx) => requireWorker(ctx, request.params.worker_id),
  }),
  worker.patch({
    chain: ['workers.workers.edit'],
    description: 'Updates the given fields of a worker; title, department and manager changes are dated by effective_on (past or future)',
    payload: Joi.object({ ...fields, title: Joi.string().trim().max(200).allow(''), effective_on: Joi.calendarDate() }),
    run: (request, ctx) => updateWorker(ctx, request.params.worker_id, request.payload),
  }),
  worker.delete({
    chain: ['workers.workers.delete'],
    answers: { single: DELETED_WORKER },
    description: 'Deletes a worker who manages no one and heads no department',
    run: (request, ctx) => deleteWorker(ctx, request.params.worker_id),
  }),
  worker.at('/status').patch({
    chain: ['workers.workers.edit'],
    description: 'Moves a worker along onboarding → active → offboarding → terminated (terminated → onboarding: a rehire)',
    payload: Joi.object({ status: Joi.string().valid(...WORKER_STATUSES).required() }),
    run: (request, ctx) => changeStatus(ctx, request.params.worker_id, request.payload.status),
  }),
  worker.at('/history', { record: HISTORY_ROW }).list({
    chain: ['workers.workers.read'],
    description: "The worker's effective-dated titles, departments and managers, oldest first",
    query: Joi.listQuery(),
    async handler(request, ctx) {
      const worker = await requireWorker(ctx, request.params.worker_id);
      const history = await historyOf(ctx, worker.id);
      const current = rowOn(history, today(ctx));
      const page = history.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit);
      return ctx.respond.collection(page.map((row) => presentHistory(row, row.id === current?.id)), history.length);
    },
  }),
  worker.at('/reports').get({
    chain: ['workers.workers.read'],
    answers: { single: REPORTS },
    description: "The worker's reports, direct (depth=1) or to any depth (depth=all, the default)",
    query: Joi.object({ depth: Joi.alternatives(Joi.number().integer().min(1).max(100), Joi.string().valid('all')) }),
    run(request, ctx) {
      const depth = request.query.depth;
      return reportsOf(ctx, request.params.worker_id, typeof depth === 'number' ? depth : undefined);
    },
  }),
];
