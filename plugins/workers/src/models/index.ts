import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A worker's lifecycle, in order; `terminated → onboarding` is a rehire. */
export const WORKER_STATUSES = ['onboarding', 'active', 'offboarding', 'terminated'] as const;
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/** How a worker is employed. */
export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contractor', 'intern'] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

/** The fields whose changes are effective-dated (kept in `worker_history`). */
export const DATED_FIELDS = ['title', 'department_id', 'manager_id'] as const;
export type DatedField = (typeof DATED_FIELDS)[number];

export const workers = defineModel('workers', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  /** Unique per workspace, compared case-insensitively (a unique index on lower(work_email)). */
  work_email: column.string(320),
  /** The current title, department and manager: those of the latest history row effective on or before today. */
  title: column.string(200).default(''),
  department_id: column.uuid().nullable(),
  manager_id: column.uuid().nullable(),
  location_mrn: column.string(200).nullable(),
  /** The name of the location (the app's copy of Settings' locations), following its renames. */
  location_name: column.string(200).nullable(),
  start_date: column.dateOnly().nullable(),
  employment_type: column.enum(EMPLOYMENT_TYPES, 20),
  /** The workspace member this worker is, linked by work e-mail or by hand. */
  member_id: column.uuid().nullable(),
  /** The member this worker was linked to when that member left the workspace (internal: never answered). */
  former_member_id: column.uuid().nullable(),
  status: column.enum(WORKER_STATUSES, 20),
  birth_date: column.dateOnly().nullable(),
  personal_email: column.string(320).nullable(),
  personal_phone: column.string(50).nullable(),
  salary_band: column.string(50).nullable(),
  /** The recruiting application this worker was drafted from (one worker per application). */
  application_id: column.uuid().nullable(),
  revision: column.integer().default(1),
});

/** A worker as stored. */
export type Worker = DeclaredRow<typeof workers>;

export const workerHistory = defineModel('worker_history', {
  id: column.uuid().primaryKey().defaultRandom(),
  worker_id: column.uuid(),
  /** From this day on (until a later row), the worker has these values. */
  effective_on: column.dateOnly(),
  title: column.string(200).default(''),
  department_id: column.uuid().nullable(),
  manager_id: column.uuid().nullable(),
  /** The member who recorded it; null when the platform did (a recruiting hire). */
  recorded_by: column.uuid().nullable(),
});

/** One effective-dated row of a worker's title, department and manager. */
export type HistoryRow = DeclaredRow<typeof workerHistory>;

export const departments = defineModel('departments', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  parent_id: column.uuid().nullable(),
  head_id: column.uuid().nullable(),
  revision: column.integer().default(1),
});

/** A department as stored. */
export type Department = DeclaredRow<typeof departments>;

/** The kinds of contract a worker works under. */
export const CONTRACT_TYPES = ['permanent', 'fixed_term', 'freelance', 'internship'] as const;
export type ContractType = (typeof CONTRACT_TYPES)[number];

export const contracts = defineModel('contracts', {
  id: column.uuid().primaryKey().defaultRandom(),
  worker_id: column.uuid(),
  contract_type: column.enum(CONTRACT_TYPES, 20),
  starts_on: column.dateOnly(),
  /** The last day of the contract; null: open-ended (a fixed-term contract always has one). */
  ends_on: column.dateOnly().nullable(),
  /** NUMERIC(5,2), read as an exact decimal string. */
  hours_per_week: column.decimal(5, 2),
  /** The working calendar (`mrn:settings:calendar:{id}`); null: the workspace's default calendar. */
  calendar_mrn: column.string(200).nullable(),
  revision: column.integer().default(1),
});

/** A contract as stored. */
export type Contract = DeclaredRow<typeof contracts>;

/** The two kinds of checklist: opened when a worker is hired (or rehired), and when their offboarding starts. */
export const CHECKLIST_KINDS = ['onboarding', 'offboarding'] as const;
export type ChecklistKind = (typeof CHECKLIST_KINDS)[number];

/**
 * What can tick an item by itself, and the kind of checklist it belongs to: the worker got a
 * workspace account (linked to a member); their files were transferred (Files'
 * `core.files.transfer.completed` from their member); their access was removed (the member left);
 * their time off that had not started was cleared (Leaves' `core.leaves.time_off.cleared`); their
 * open tasks were unassigned (Tasks' `core.tasks.member.released` for their member).
 */
export const CONFIRMATIONS = { member_linked: 'onboarding', files_transferred: 'offboarding', access_removed: 'offboarding', time_off_cancelled: 'offboarding', tasks_unassigned: 'offboarding' } as const satisfies Record<string, ChecklistKind>;
export type Confirmation = keyof typeof CONFIRMATIONS;

/** An item of a template. */
export interface TemplateItem {
  label: string;
  confirmed_by?: Confirmation;
}

export const checklistTemplates = defineModel('checklist_templates', {
  id: column.uuid().primaryKey().defaultRandom(),
  kind: column.enum(CHECKLIST_KINDS, 20),
  name: column.string(200),
  /** The department whose workers get it; null: every worker. */
  department_id: column.uuid().nullable(),
  items: column.json<TemplateItem[]>(),
  revision: column.integer().default(1),
});

/** A checklist template as stored. */
export type ChecklistTemplate = DeclaredRow<typeof checklistTemplates>;

export const checklists = defineModel('checklists', {
  id: column.uuid().primaryKey().defaultRandom(),
  worker_id: column.uuid(),
  kind: column.enum(CHECKLIST_KINDS, 20),
  name: column.string(200),
  /** The template it was opened from (which may since have changed or gone). */
  template_id: column.uuid().nullable(),
  /** When its last item was done; null while one is open. */
  completed_at: column.date().nullable(),
});

/** A worker's checklist as stored. */
export type Checklist = DeclaredRow<typeof checklists>;

export const checklistItems = defineModel('checklist_items', {
  id: column.uuid().primaryKey().defaultRandom(),
  checklist_id: column.uuid(),
  worker_id: column.uuid(),
  position: column.integer(),
  label: column.string(200),
  confirmed_by: column.enum(Object.keys(CONFIRMATIONS) as Confirmation[], 40).nullable(),
  done_at: column.date().nullable(),
  /** The member who ticked it by hand; null when an event (or the state the worker was in) did. */
  done_by: column.uuid().nullable(),
  /** What ticked it when no member did: the confirming event's action, or `already` (true when the checklist opened). */
  done_via: column.string(200).nullable(),
});

/** A checklist item as stored. */
export type ChecklistItem = DeclaredRow<typeof checklistItems>;

/** Every model of the app, by the name services use in `ctx.db`. */
/** The app's copy of a Settings location (core.settings.location.*): what a worker's `location_mrn` may name. */
export const locations = defineModel('locations', {
  id: column.uuid().primaryKey(),
  name: column.string(200),
  timezone: column.string(100),
  /** Deleted in Settings: kept as a tombstone (a late update cannot revive it); no worker may name it anew. */
  deleted: column.boolean().default(false),
  revision: column.integer(),
});
export type LocationCopy = DeclaredRow<typeof locations>;

export const models = { workers, workerHistory, departments, contracts, checklistTemplates, checklists, checklistItems, locations };

/** The models' type, for typing contexts. */
export type Models = typeof models;
