import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Sequelize's `fn` and `col`, from the very copy the SDK (and so the runtime's models) load: an
 * aggregate in a read's `attributes` must be built by that copy (Sequelize checks the class), and
 * the SDK re-exports `Op` but no aggregate builder. Used by the forecast to sum numerics in SQL.
 */
const sequelize = createRequire(fileURLToPath(import.meta.resolve('@wpk/sdk')))('sequelize') as {
  fn(name: string, ...args: unknown[]): unknown;
  col(name: string): unknown;
};

/** `SUM(column)`, exact on a numeric column. */
export const sumOf = (column: string): unknown => sequelize.fn('SUM', sequelize.col(column));
