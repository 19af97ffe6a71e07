import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { CHECKLIST_KINDS, CONFIRMATIONS, CONTRACT_TYPES, EMPLOYMENT_TYPES, WORKER_STATUSES } from '../models/index.js';

const nullableText = () => Joi.string().allow('', null);
const workerMrn = () => Joi.string().pattern(/^mrn:workers:worker:/);

/** A worker as every route answers it (services/present.ts); the private fields only for holders of `workers.private_fields.read`. */
export const WORKER: JoiObjectSchema = recordSchema(
  {
    id: field.uuid(),
    mrn: workerMrn(),
    name: Joi.string(),
    work_email: Joi.string(),
    title: Joi.string().allow(''),
    department_id: field.uuid().allow(null),
    manager_id: field.uuid().allow(null),
    location_mrn: nullableText(),
    location_name: Joi.string().allow(null).description("The location's name in the app's copy of Settings' locations (follows renames)"),
    start_date: field.date().allow(null),
    employment_type: field.oneOf(EMPLOYMENT_TYPES),
    member_id: field.uuid().allow(null),
    member_mrn: field.memberMrn().allow(null),
    status: field.oneOf(WORKER_STATUSES),
    application_id: field.uuid().allow(null).description('The recruiting application the worker was drafted from'),
    revision: Joi.number().integer().min(1).description('Rises by one with every change; copies kept by other apps keep the highest'),
    created_at: field.instant(),
    updated_at: field.instant(),
    birth_date: field.date().allow(null).description('Only with workers.private_fields.read'),
    personal_email: nullableText().description('Only with workers.private_fields.read'),
    personal_phone: nullableText().description('Only with workers.private_fields.read'),
    salary_band: nullableText().description('Only with workers.private_fields.read'),
  },
  { optional: ['birth_date', 'personal_email', 'personal_phone', 'salary_band'] },
).id('WorkersWorker');

/** A location of the app's copy of Settings' locations (`GET /workers/locations`). */
export const LOCATION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string().pattern(/^mrn:settings:location:/),
  name: Joi.string(),
  timezone: Joi.string(),
}).id('WorkersLocation');

/** `DELETE /workers/{worker_id}`. */
export const DELETED_WORKER: JoiObjectSchema = recordSchema({ id: field.uuid(), mrn: workerMrn(), deleted: Joi.boolean().valid(true) }).id('WorkersDeletedWorker');

/** One effective-dated row of a worker's title, department and manager. */
export const HISTORY_ROW: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  worker_id: field.uuid(),
  effective_on: field.date(),
  title: Joi.string().allow(''),
  department_id: field.uuid().allow(null),
  manager_id: field.uuid().allow(null),
  recorded_by: field.uuid().allow(null),
  in_effect: Joi.boolean().description('True for the row whose values are the current ones'),
  created_at: field.instant(),
}).id('WorkersHistoryRow');

/** A worker in the org chart or a reports list. */
export const ORG_NODE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: workerMrn(),
  name: Joi.string(),
  title: Joi.string().allow(''),
  department_id: field.uuid().allow(null),
  manager_id: field.uuid().allow(null),
  status: field.oneOf(WORKER_STATUSES),
  member_id: field.uuid().allow(null),
  depth: field.count().description('0: the root; 1: a direct report; …'),
}).id('WorkersOrgNode');

/** `GET /workers/{worker_id}/reports`. */
export const REPORTS: JoiObjectSchema = recordSchema({
  worker: ORG_NODE,
  depth: Joi.alternatives(Joi.number().integer().min(1), Joi.string().valid('all')),
  reports: Joi.array().items(ORG_NODE),
}).id('WorkersReports');

/** `GET /workers/org-chart`: nodes depth-first, each after its manager. */
export const ORG_CHART: JoiObjectSchema = recordSchema({ root_id: field.uuid().allow(null), nodes: Joi.array().items(ORG_NODE) }).id('WorkersOrgChart');

/** A department. */
export const DEPARTMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string().pattern(/^mrn:workers:department:/),
  name: Joi.string(),
  parent_id: field.uuid().allow(null),
  head_id: field.uuid().allow(null),
  worker_count: field.count(),
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('WorkersDepartment');

/** `DELETE /workers/departments/{department_id}`. */
export const DELETED_DEPARTMENT: JoiObjectSchema = recordSchema({ id: field.uuid(), mrn: Joi.string().pattern(/^mrn:workers:department:/), deleted: Joi.boolean().valid(true) }).id('WorkersDeletedDepartment');

/** `POST /workers/imports`: what a dry run or an import found and did. */
export const IMPORT_RESULT: JoiObjectSchema = recordSchema({
  dry_run: Joi.boolean(),
  rows: field.count().description('The worker rows of the file'),
  valid: Joi.boolean().description('True when every row can be imported'),
  problems: Joi.array().items(recordSchema({ line: Joi.number().integer().min(1), field: Joi.string(), error: Joi.string() })).description('Every refused cell, by line of the file and column'),
  imported: field.count(),
}).id('WorkersImportResult');

/** A worker's contract. */
export const CONTRACT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  worker_id: field.uuid(),
  worker_mrn: workerMrn(),
  contract_type: field.oneOf(CONTRACT_TYPES),
  starts_on: field.date(),
  ends_on: field.date().allow(null).description('The last day; null: open-ended'),
  hours_per_week: Joi.number().min(0).max(168),
  calendar_mrn: Joi.string().allow(null).description("The working calendar (a settings calendar); null: the workspace's default"),
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('WorkersContract');

/** `DELETE /workers/{worker_id}/contracts/{contract_id}`. */
export const DELETED_CONTRACT: JoiObjectSchema = recordSchema({ id: field.uuid(), worker_id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('WorkersDeletedContract');

const confirmation = () => field.oneOf(Object.keys(CONFIRMATIONS));

/** An on/offboarding checklist template. */
export const CHECKLIST_TEMPLATE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  kind: field.oneOf(CHECKLIST_KINDS),
  name: Joi.string(),
  department_id: field.uuid().allow(null).description('The department whose workers get it; null: every worker'),
  items: Joi.array().items(recordSchema({ label: Joi.string(), confirmed_by: confirmation() }, { optional: ['confirmed_by'] })),
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('WorkersChecklistTemplate');

/** `DELETE /workers/checklist-templates/{template_id}`. */
export const DELETED_TEMPLATE: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('WorkersDeletedChecklistTemplate');

/** A worker's checklist with its items and what is missing. */
export const CHECKLIST: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  worker_id: field.uuid(),
  kind: field.oneOf(CHECKLIST_KINDS),
  name: Joi.string(),
  template_id: field.uuid().allow(null),
  completed_at: field.instant().allow(null),
  created_at: field.instant(),
  items: Joi.array().items(
    recordSchema({
      id: field.uuid(),
      label: Joi.string(),
      confirmed_by: confirmation().allow(null),
      done: Joi.boolean(),
      done_at: field.instant().allow(null),
      done_by: field.uuid().allow(null).description('The member who ticked it by hand'),
      done_via: Joi.string().allow(null).description('What ticked it otherwise: the confirming event, or `already`'),
    }),
  ),
  missing: Joi.array().items(Joi.string()).description('The labels of the items not done yet'),
}).id('WorkersChecklist');
