import { DataTypes, defineModel } from '@wpk/sdk';

/** How a board's canvas grid is drawn; every field is optional. */
export interface BoardGrid {
  mode?: 'none' | 'dots' | 'lines';
  spacing?: number;
  snap?: boolean;
  background?: string;
  default_sticky_color?: string;
}

/** A board: a project whose tasks sit in lanes. `archived_at` is set by `PUT {deleted: true}`. */
export interface Board {
  id: string;
  title: string;
  description: string;
  is_template: boolean;
  template_id: string | null;
  grid: BoardGrid;
  lanes: string[];
  creator_id: string;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const boards = defineModel<Board>('boards', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  title: { type: DataTypes.STRING(200), allowNull: false },
  description: { type: DataTypes.STRING(2000), allowNull: false, defaultValue: '' },
  is_template: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  template_id: { type: DataTypes.UUID, allowNull: true },
  grid: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
  lanes: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  archived_at: { type: DataTypes.DATE, allowNull: true },
});
