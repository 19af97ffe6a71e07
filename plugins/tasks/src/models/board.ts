import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** How a board's canvas grid is drawn; every field is optional. */
export interface BoardGrid {
  mode?: 'none' | 'dots' | 'lines';
  spacing?: number;
  snap?: boolean;
  background?: string;
  default_sticky_color?: string;
}

/** A board: a project whose tasks sit in lanes. `archived_at` is set by `PUT {deleted: true}`. */
export type Board = DeclaredRow<typeof boards>;

export const boards = defineModel('boards', {
  id: column.uuid().primaryKey().defaultRandom(),
  title: column.string(200),
  description: column.string(2000).default(''),
  is_template: column.boolean().default(false),
  template_id: column.uuid().nullable(),
  grid: column.json<BoardGrid>().default({}),
  lanes: column.json<string[]>().default([]),
  creator_id: column.uuid(),
  archived_at: column.date().nullable(),
});
