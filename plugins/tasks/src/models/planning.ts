import { DataTypes, defineModel } from '@wpk/sdk';

/** A topic of a board (a label grouping its tasks). */
export interface Topic {
  id: string;
  board_id: string;
  name: string;
  color: string | null;
  creator_id: string;
  created_at: Date;
  updated_at: Date;
}

export const topics = defineModel<Topic>('topics', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  board_id: { type: DataTypes.UUID, allowNull: false },
  name: { type: DataTypes.STRING(80), allowNull: false },
  color: { type: DataTypes.STRING(7), allowNull: true },
  creator_id: { type: DataTypes.UUID, allowNull: false },
});

/** A schedule plans incubator tasks for a period; its tasks can be pulled onto a board together. */
export interface Schedule {
  id: string;
  name: string;
  start_date: string | null;
  end_date: string | null;
  creator_id: string;
  completed_at: Date | null;
  completed_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const schedules = defineModel<Schedule>('schedules', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  name: { type: DataTypes.STRING(120), allowNull: false },
  start_date: { type: DataTypes.DATEONLY, allowNull: true },
  end_date: { type: DataTypes.DATEONLY, allowNull: true },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  completed_at: { type: DataTypes.DATE, allowNull: true },
  completed_by: { type: DataTypes.UUID, allowNull: true },
});

/** Board member roles (the specification leaves the enum unlisted). */
export const BOARD_ROLES = ['owner', 'editor', 'viewer'] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];

/** A workspace member's role on one board. */
export interface BoardMember {
  board_id: string;
  member_id: string;
  role: BoardRole;
  added_by: string;
  created_at: Date;
  updated_at: Date;
}

export const boardMembers = defineModel<BoardMember>('board_members', {
  board_id: { type: DataTypes.UUID, primaryKey: true },
  member_id: { type: DataTypes.UUID, primaryKey: true },
  role: { type: DataTypes.STRING(10), allowNull: false },
  added_by: { type: DataTypes.UUID, allowNull: false },
});

/** A member's saved view of a board (tab plus an optional schedule). */
export interface View {
  id: string;
  board_id: string;
  owner_id: string;
  name: string;
  tab: string;
  schedule_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const views = defineModel<View>('views', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  board_id: { type: DataTypes.UUID, allowNull: false },
  owner_id: { type: DataTypes.UUID, allowNull: false },
  name: { type: DataTypes.STRING(80), allowNull: false },
  tab: { type: DataTypes.STRING(40), allowNull: false },
  schedule_id: { type: DataTypes.UUID, allowNull: true },
});
