import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A review cycle's states, in order. */
export const CYCLE_STATUSES = ['draft', 'self_review', 'peer_review', 'manager_review', 'calibration', 'released', 'closed'] as const;
export type CycleStatus = (typeof CYCLE_STATUSES)[number];

/** Who owns a goal. */
export const OWNER_TYPES = ['member', 'department', 'company'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

export const GOAL_STATUSES = ['active', 'completed', 'cancelled'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** How an event-fed key result adds up the events that pass its filter. */
export const AGGREGATES = ['count', 'sum'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const NOMINATION_STATUSES = ['proposed', 'approved', 'declined'] as const;
export type NominationStatus = (typeof NOMINATION_STATUSES)[number];

/** One level of a competency: its number (1 up) and what it looks like. */
export interface Level {
  level: number;
  descriptor: string;
}

/** The weights of a cycle's final score, in percent (summing to 100). */
export interface Weights {
  self: number;
  peer: number;
  manager: number;
}

/** What feeds a key result: a catalog action, an optional JSONata filter over its payload, and how to add up. */
export interface KeySource {
  action: string;
  filter: string | null;
  aggregate: Aggregate;
  /** For `sum`: the payload field added (a number). */
  field: string | null;
}

export const competencies = defineModel('competencies', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  description: column.text().default(''),
  levels: column.json<Level[]>(),
  revision: column.integer().default(1),
});
export type Competency = DeclaredRow<typeof competencies>;

export const profiles = defineModel('profiles', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  description: column.text().default(''),
  /** The competencies of the role and the level each expects. */
  expectations: column.json<Array<{ competency_id: string; level: number }>>(),
});
export type Profile = DeclaredRow<typeof profiles>;

/** The app's copy of the workers directory (fed by `core.workers.*`): the manager tree and who is which member. */
export const people = defineModel('people', {
  id: column.uuid().primaryKey(),
  name: column.string(200),
  member_id: column.uuid().nullable(),
  manager_id: column.uuid().nullable(),
  department_id: column.uuid().nullable(),
  status: column.string(20),
  revision: column.integer(),
});
export type Person = DeclaredRow<typeof people>;

/** The app's copy of the departments (fed by `core.workers.department.*`). */
export const departments = defineModel('departments', {
  id: column.uuid().primaryKey(),
  name: column.string(200),
  revision: column.integer(),
});
export type DepartmentCopy = DeclaredRow<typeof departments>;

export const goals = defineModel('goals', {
  id: column.uuid().primaryKey().defaultRandom(),
  title: column.string(200),
  description: column.text().default(''),
  owner_type: column.enum(OWNER_TYPES, 20),
  /** The member or department; null for the company. */
  owner_id: column.uuid().nullable(),
  parent_id: column.uuid().nullable(),
  period_start: column.dateOnly().nullable(),
  period_end: column.dateOnly().nullable(),
  status: column.enum(GOAL_STATUSES, 20),
  created_by: column.uuid().nullable(),
  revision: column.integer().default(1),
});
export type Goal = DeclaredRow<typeof goals>;

export const keyResults = defineModel('key_results', {
  id: column.uuid().primaryKey().defaultRandom(),
  goal_id: column.uuid(),
  position: column.integer(),
  title: column.string(200),
  start_value: column.double(),
  target_value: column.double(),
  current_value: column.double(),
  unit: column.string(30).default(''),
  source: column.json<KeySource | null>().nullable(),
});
export type KeyResult = DeclaredRow<typeof keyResults>;

export const checkIns = defineModel('check_ins', {
  id: column.uuid().primaryKey().defaultRandom(),
  goal_id: column.uuid(),
  key_result_id: column.uuid(),
  value: column.double(),
  note: column.text().default(''),
  /** The member who checked in; null when an event moved it. */
  member_id: column.uuid().nullable(),
  /** The delivery that moved it (event-fed key results): one per key result. */
  delivery_id: column.string(100).nullable(),
});
export type CheckIn = DeclaredRow<typeof checkIns>;

export const cycles = defineModel('cycles', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  status: column.enum(CYCLE_STATUSES, 20),
  weights: column.json<Weights>(),
  revision: column.integer().default(1),
});
export type Cycle = DeclaredRow<typeof cycles>;

export const reviews = defineModel('reviews', {
  id: column.uuid().primaryKey().defaultRandom(),
  cycle_id: column.uuid(),
  /** The worker reviewed (from the copy). */
  worker_id: column.uuid(),
  /** The worker's place by name when the cycle opened: the order reviews are listed in. */
  position: column.integer(),
  /** Their manager when the cycle opened. */
  manager_id: column.uuid().nullable(),
  self_score: column.double().nullable(),
  self_comment: column.text().default(''),
  manager_score: column.double().nullable(),
  manager_comment: column.text().default(''),
  calibrated_score: column.double().nullable(),
  final_score: column.double().nullable(),
});
export type Review = DeclaredRow<typeof reviews>;

export const nominations = defineModel('peer_nominations', {
  id: column.uuid().primaryKey().defaultRandom(),
  review_id: column.uuid(),
  peer_id: column.uuid(),
  status: column.enum(NOMINATION_STATUSES, 20),
  score: column.double().nullable(),
  comment: column.text().default(''),
});
export type Nomination = DeclaredRow<typeof nominations>;

export const oneOnOnes = defineModel('one_on_ones', {
  id: column.uuid().primaryKey().defaultRandom(),
  organizer_id: column.uuid(),
  attendee_id: column.uuid(),
  scheduled_on: column.dateOnly(),
  agenda: column.json<string[]>(),
  notes: column.text().default(''),
  action_items: column.json<Array<{ text: string; done: boolean }>>(),
});
export type OneOnOne = DeclaredRow<typeof oneOnOnes>;

export const feedbackRequests = defineModel('feedback_requests', {
  id: column.uuid().primaryKey().defaultRandom(),
  requester_id: column.uuid(),
  responder_id: column.uuid(),
  about_id: column.uuid(),
  question: column.text(),
  due_on: column.dateOnly().nullable(),
});
export type FeedbackRequest = DeclaredRow<typeof feedbackRequests>;

export const praise = defineModel('praise', {
  id: column.uuid().primaryKey().defaultRandom(),
  giver_id: column.uuid(),
  receiver_id: column.uuid(),
  message: column.text(),
  competency_id: column.uuid().nullable(),
});
export type Praise = DeclaredRow<typeof praise>;

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { competencies, profiles, people, departments, goals, keyResults, checkIns, cycles, reviews, nominations, oneOnOnes, feedbackRequests, praise };

/** The models' type, for typing contexts. */
export type Models = typeof models;
