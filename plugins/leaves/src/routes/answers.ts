import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { APPROVALS, ENTRY_KINDS, HALVES, PERIODS, REQUEST_STATUSES, UNITS } from '../models/index.js';

const amount = () => Joi.number().description("In the type's unit: days (day, half_day) or hours");

/** A leave type. */
export const TYPE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  unit: field.oneOf(UNITS),
  paid: Joi.boolean(),
  needs_allocation: Joi.boolean(),
  allow_negative: Joi.boolean(),
  approval: field.oneOf(APPROVALS),
  holidays_excluded: Joi.boolean(),
  carry_over_cap: amount().allow(null),
  default_allocation: amount(),
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('LeavesType');

/** `DELETE /leaves/types/{type_id}`. */
export const DELETED_TYPE: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('LeavesDeletedType');

/** An allocation: manual, or an accrual plan. */
export const ALLOCATION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  worker_id: field.uuid(),
  type_id: field.uuid(),
  kind: field.oneOf(['manual', 'accrual']),
  amount: amount().description('A manual grant, or what a plan grants per full period'),
  period: field.oneOf(PERIODS).allow(null),
  cap: amount().allow(null),
  starts_on: field.date(),
  expires_on: field.date().allow(null),
  note: Joi.string().allow(''),
  granted: amount().description('What it has granted so far'),
  created_at: field.instant(),
}).id('LeavesAllocation');

/** `DELETE /leaves/allocations/{allocation_id}`. */
export const DELETED_ALLOCATION: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true), taken_back: amount() }).id('LeavesDeletedAllocation');

/** A time-off request. */
export const REQUEST: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  worker_id: field.uuid(),
  worker_name: Joi.string().allow(null),
  type_id: field.uuid(),
  type_name: Joi.string().allow(null),
  from_date: field.date(),
  from_half: field.oneOf(HALVES),
  to_date: field.date(),
  to_half: field.oneOf(HALVES),
  hours: Joi.number().allow(null),
  duration: amount().description('Working time only: weekends and public holidays count 0'),
  status: field.oneOf(REQUEST_STATUSES),
  awaiting: field.oneOf(['manager', 'hr']).allow(null),
  note: Joi.string().allow(''),
  reason: Joi.string().allow(null),
  approver_id: field.uuid().allow(null),
  decided_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('LeavesRequest');

/** `DELETE /leaves/requests/{request_id}`: a deleted draft. */
export const DELETED_REQUEST: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('LeavesDeletedRequest');

/** One type's balance of a worker. */
export const BALANCE: JoiObjectSchema = recordSchema({
  worker_id: field.uuid(),
  type_id: field.uuid(),
  type_name: Joi.string(),
  unit: field.oneOf(UNITS),
  needs_allocation: Joi.boolean(),
  balance: amount().description("The sum of the worker's ledger entries of the type"),
  pending: amount().description('What submitted requests will take if approved'),
  available: amount().description('balance - pending'),
}).id('LeavesBalance');

/** One ledger entry. */
export const ENTRY: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  worker_id: field.uuid(),
  type_id: field.uuid(),
  kind: field.oneOf(ENTRY_KINDS),
  amount: amount(),
  balance_after: amount().description("The type's balance after this entry"),
  occurred_on: field.date(),
  allocation_id: field.uuid().allow(null),
  request_id: field.uuid().allow(null),
  created_at: field.instant(),
}).id('LeavesLedgerEntry');

/** Someone out: an approved (or pending) request in the range. */
export const ABSENCE: JoiObjectSchema = recordSchema({
  request_id: field.uuid(),
  worker_id: field.uuid(),
  worker_name: Joi.string(),
  department_id: field.uuid().allow(null),
  type_id: field.uuid(),
  type_name: Joi.string(),
  from_date: field.date(),
  from_half: field.oneOf(HALVES),
  to_date: field.date(),
  to_half: field.oneOf(HALVES),
  duration: amount(),
  status: field.oneOf(REQUEST_STATUSES),
}).id('LeavesAbsence');

/** `POST /leaves/feeds`: the link, shown once (only its hash is kept). */
export const FEED: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  worker_id: field.uuid().allow(null),
  department_id: field.uuid().allow(null),
  path: Joi.string().description('The feed\'s path on the workspace host'),
  url: Joi.string().description('The whole link, for a calendar application'),
}).id('LeavesFeed');
