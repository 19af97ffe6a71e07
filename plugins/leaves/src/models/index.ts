import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** How a leave type is taken and counted: whole days, half days (counted in days), or hours. */
export const UNITS = ['day', 'half_day', 'hour'] as const;
export type Unit = (typeof UNITS)[number];

/** Who approves a request of the type: the worker's manager, or the manager and then HR. */
export const APPROVALS = ['manager', 'manager_then_hr'] as const;
export type Approval = (typeof APPROVALS)[number];

/** A request's life: draft → submitted → approved | refused; submitted → withdrawn; approved → cancelled. */
export const REQUEST_STATUSES = ['draft', 'submitted', 'approved', 'refused', 'withdrawn', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** The half of a day a request starts or ends on. */
export const HALVES = ['am', 'pm'] as const;
export type Half = (typeof HALVES)[number];

/** How an accrual plan grants: once a month or once a year. */
export const PERIODS = ['monthly', 'yearly'] as const;
export type Period = (typeof PERIODS)[number];

/** What a ledger entry records. */
export const ENTRY_KINDS = ['allocation', 'accrual', 'request', 'cancellation', 'expiry', 'carry_over'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** The Workers app's workers as this app keeps them (fed by core.workers.worker.*). */
export const workers = defineModel('workers', {
  id: column.uuid().primaryKey(),
  name: column.string(200),
  member_id: column.uuid().nullable(),
  manager_id: column.uuid().nullable(),
  department_id: column.uuid().nullable(),
  status: column.string(20),
  start_date: column.dateOnly().nullable(),
  revision: column.integer(),
});
export type WorkerCopy = DeclaredRow<typeof workers>;

/** The Workers app's departments as this app keeps them. */
export const departments = defineModel('departments', {
  id: column.uuid().primaryKey(),
  name: column.string(200),
  revision: column.integer(),
});
export type DepartmentCopy = DeclaredRow<typeof departments>;

/** The Settings app's working calendars as this app keeps them. */
export const calendars = defineModel('calendars', {
  id: column.uuid().primaryKey(),
  name: column.string(200),
  /** ISO weekday numbers, 1 = Monday. */
  working_days: column.json<number[]>(),
  hours_per_day: column.double(),
});
export type CalendarCopy = DeclaredRow<typeof calendars>;

/** The Workers app's contracts as this app keeps them: the working calendar of each stretch of a worker's days. */
export const contracts = defineModel('contracts', {
  id: column.uuid().primaryKey(),
  worker_id: column.uuid(),
  starts_on: column.dateOnly(),
  ends_on: column.dateOnly().nullable(),
  /** The Settings calendar the contract names; null: the workspace's calendar. */
  calendar_id: column.uuid().nullable(),
  /** A tombstone: the contract was deleted (kept so a late lower revision cannot restore it). */
  deleted: column.boolean().default(false),
  revision: column.integer(),
});
export type ContractCopy = DeclaredRow<typeof contracts>;

/** The Settings app's public holidays as this app keeps them. */
export const holidays = defineModel('holidays', {
  id: column.uuid().primaryKey(),
  calendar_id: column.uuid(),
  date: column.dateOnly(),
  name: column.string(200),
});
export type HolidayCopy = DeclaredRow<typeof holidays>;

export const leaveTypes = defineModel('leave_types', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  unit: column.enum(UNITS, 20),
  paid: column.boolean().default(true),
  needs_allocation: column.boolean().default(true),
  /** May a balance of the type go below zero. */
  allow_negative: column.boolean().default(false),
  approval: column.enum(APPROVALS, 20),
  holidays_excluded: column.boolean().default(true),
  /** The most a balance carries into a new year (null: all of it). */
  carry_over_cap: column.integer().nullable(),
  /** Granted to every worker hired (0: none). */
  default_allocation: column.integer().default(0),
  revision: column.integer().default(1),
});
export type LeaveType = DeclaredRow<typeof leaveTypes>;

/** A grant: a fixed amount, or an accrual plan that grants by period. */
export const allocations = defineModel('allocations', {
  id: column.uuid().primaryKey().defaultRandom(),
  worker_id: column.uuid(),
  type_id: column.uuid(),
  /** A manual grant's amount; for a plan, the amount of a full period. */
  amount: column.integer(),
  /** null: a manual grant; otherwise the plan's period. */
  period: column.string(10).nullable(),
  /** A plan's ceiling over everything it grants (null: none). */
  cap: column.integer().nullable(),
  starts_on: column.dateOnly(),
  /** What the allocation still holds lapses on this day (null: never). */
  expires_on: column.dateOnly().nullable(),
  note: column.string(500).default(''),
  granted_by: column.uuid().nullable(),
});
export type Allocation = DeclaredRow<typeof allocations>;

export const requests = defineModel('requests', {
  id: column.uuid().primaryKey().defaultRandom(),
  worker_id: column.uuid(),
  type_id: column.uuid(),
  from_date: column.dateOnly(),
  from_half: column.enum(HALVES, 2),
  to_date: column.dateOnly(),
  to_half: column.enum(HALVES, 2),
  hours: column.double().nullable(),
  /** In the type's unit: days (day, half_day) or hours. */
  duration: column.integer(),
  status: column.enum(REQUEST_STATUSES, 20),
  note: column.string(1000).default(''),
  /** Why it was refused or cancelled. */
  reason: column.string(1000).nullable(),
  /** The worker who approves it now (the manager, or their delegate). */
  approver_id: column.uuid().nullable(),
  /** For manager_then_hr: set once the manager approved; HR decides next. */
  manager_approved_by: column.uuid().nullable(),
  decided_by: column.uuid().nullable(),
  created_by: column.uuid().nullable(),
});
export type LeaveRequest = DeclaredRow<typeof requests>;

/** One row per half day a submitted or approved request holds: the unique key makes overlaps impossible. */
export const slots = defineModel('request_slots', {
  id: column.uuid().primaryKey().defaultRandom(),
  worker_id: column.uuid(),
  day: column.dateOnly(),
  half: column.enum(HALVES, 2),
  request_id: column.uuid(),
}, { timestamps: false });

/**
 * The append-only ledger: a balance is the sum of its entries. Every amount of the app (here, in
 * allocations, requests and types) is kept in hundredths of the type's unit, so sums are exact.
 */
export const ledger = defineModel('ledger_entries', {
  id: column.uuid().primaryKey().defaultRandom(),
  worker_id: column.uuid(),
  type_id: column.uuid(),
  kind: column.enum(ENTRY_KINDS, 20),
  amount: column.integer(),
  occurred_on: column.dateOnly(),
  allocation_id: column.uuid().nullable(),
  request_id: column.uuid().nullable(),
  /** What makes the entry once-only: an accrual's period, a request's debit, an expiry. */
  dedupe_key: column.string(200),
});
export type LedgerEntry = DeclaredRow<typeof ledger>;

/** An iCal feed link: who is out for one worker or one department. Only the token's SHA-256 is kept. */
export const feeds = defineModel('feeds', {
  id: column.uuid().primaryKey().defaultRandom(),
  token_hash: column.string(64),
  worker_id: column.uuid().nullable(),
  department_id: column.uuid().nullable(),
  created_by: column.uuid(),
});
export type Feed = DeclaredRow<typeof feeds>;

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { workers, departments, contracts, calendars, holidays, leaveTypes, allocations, requests, slots, ledger, feeds };
export type Models = typeof models;
