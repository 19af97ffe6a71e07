import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A topic of a board (a label grouping its tasks). */
export type Topic = DeclaredRow<typeof topics>;

export const topics = defineModel('topics', {
  id: column.uuid().primaryKey().defaultRandom(),
  board_id: column.uuid(),
  name: column.string(80),
  color: column.string(7).nullable(),
  creator_id: column.uuid(),
});

/** A schedule plans incubator tasks for a period; its tasks can be pulled onto a board together. */
export type Schedule = DeclaredRow<typeof schedules>;

export const schedules = defineModel('schedules', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(120),
  start_date: column.dateOnly().nullable(),
  end_date: column.dateOnly().nullable(),
  creator_id: column.uuid(),
  completed_at: column.date().nullable(),
  completed_by: column.uuid().nullable(),
});

/** Board member roles (the specification leaves the enum unlisted). */
export const BOARD_ROLES = ['owner', 'editor', 'viewer'] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];

/** A workspace member's role on one board. */
export type BoardMember = DeclaredRow<typeof boardMembers>;

export const boardMembers = defineModel('board_members', {
  board_id: column.uuid().primaryKey(),
  member_id: column.uuid().primaryKey(),
  role: column.enum(BOARD_ROLES, 10),
  added_by: column.uuid(),
});

/** A member's saved view of a board (tab plus an optional schedule). */
export type View = DeclaredRow<typeof views>;

export const views = defineModel('views', {
  id: column.uuid().primaryKey().defaultRandom(),
  board_id: column.uuid(),
  owner_id: column.uuid(),
  name: column.string(80),
  tab: column.string(40),
  schedule_id: column.uuid().nullable(),
});
