import type { QueryInterface, QueryTypes, Sequelize } from 'sequelize';

// A type-only import: this module loads nothing of Sequelize's (nor of umzug's) itself.
const SELECT = 'SELECT' as QueryTypes.SELECT;

/** What a migration receives. `schema` is the schema it owns. */
export interface MigrationContext {
  sequelize: Sequelize;
  queryInterface: QueryInterface;
  schema: string;
}

/** One migration: a unique, ordered name and its two directions. */
export interface Migration {
  name: string;
  up(context: MigrationContext): Promise<void>;
  down?(context: MigrationContext): Promise<void>;
}

export interface MigrationSet {
  /** Schema the migrations own; their bookkeeping table lives there too. */
  schema: string;
  migrations: Migration[];
}

function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Invalid schema name: ${name}`);
  return `"${name}"`;
}

/**
 * The bookkeeping table, exactly as umzug 3's SequelizeStorage made it (a model with one
 * `name` STRING column, primary key and unique, no timestamps; docs/decisions), so data
 * directories and databases migrated before keep working.
 */
function bookkeeping(sequelize: Sequelize, schema: string) {
  const table = `${quoteIdentifier(schema)}."migrations"`;
  return {
    /** Names applied, read in name order as umzug's storage did; creates the table when missing (looked up first, as Sequelize's sync did). */
    async executed(): Promise<Set<string>> {
      const found = await sequelize.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'migrations'`, { bind: [schema], type: SELECT });
      if (found.length === 0) await sequelize.query(`CREATE TABLE IF NOT EXISTS ${table} ("name" VARCHAR(255) NOT NULL UNIQUE , PRIMARY KEY ("name"))`);
      const rows = await sequelize.query<{ name: string }>(`SELECT "name" FROM ${table} ORDER BY "name" ASC`, { type: SELECT });
      return new Set(rows.map((row) => row.name));
    },
    log: (name: string) => sequelize.query(`INSERT INTO ${table} ("name") VALUES ($1)`, { bind: [name] }),
    unlog: (name: string) => sequelize.query(`DELETE FROM ${table} WHERE "name" = $1`, { bind: [name] }),
  };
}

/** A migration that threw, named with its direction; the message is umzug's MigrationError's, the original error its `cause`. */
class MigrationError extends Error {
  constructor(
    readonly migration: { name: string; direction: 'up' | 'down' },
    original: unknown,
  ) {
    const detail = original instanceof Error ? `Original error: ${original.message}` : `Non-error value thrown. See info for full props: ${String(original)}`;
    super(`Migration ${migration.name} (${migration.direction}) failed: ${detail}`, { cause: original });
    this.name = 'MigrationError';
  }
}

/** Runs one direction of one migration, wrapping what it throws. */
async function run(migration: Migration, direction: 'up' | 'down', context: MigrationContext): Promise<void> {
  try {
    if (direction === 'up') await migration.up(context);
    else if (!migration.down) throw new Error(`Migration ${context.schema}/${migration.name} cannot be reverted`);
    else await migration.down(context);
  } catch (error) {
    throw new MigrationError({ name: migration.name, direction }, error);
  }
}

function contextOf(sequelize: Sequelize, set: MigrationSet): MigrationContext {
  return { sequelize, queryInterface: sequelize.getQueryInterface(), schema: set.schema };
}

/** One step of a migration run, as it happens: `started`, then `applied` with its duration. */
export type MigrationProgress = { schema: string; name: string } & ({ phase: 'started' } | { phase: 'applied'; ms: number });

/**
 * Runs a schema's pending migrations in one transaction under an advisory lock, so two
 * processes starting together never run the same migration twice, and a failure leaves
 * nothing half-applied. Returns the names applied; `onProgress` hears each one start and end.
 */
export async function migrateUp(sequelize: Sequelize, set: MigrationSet, onProgress?: (step: MigrationProgress) => void): Promise<string[]> {
  return sequelize.transaction(async () => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(hashtext('wpk-migrations'))`);
    await sequelize.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(set.schema)}`);
    const storage = bookkeeping(sequelize, set.schema);
    const executed = await storage.executed();
    const pending = set.migrations.filter((migration) => !executed.has(migration.name));
    const context = contextOf(sequelize, set);
    for (const migration of pending) {
      const since = performance.now();
      onProgress?.({ schema: set.schema, name: migration.name, phase: 'started' });
      await run(migration, 'up', context);
      await storage.log(migration.name);
      onProgress?.({ schema: set.schema, name: migration.name, phase: 'applied', ms: Math.round(performance.now() - since) });
    }
    return pending.map((migration) => migration.name);
  });
}

/** Reverts a schema's migrations down to `to`, `to` included (umzug's meaning, kept); all when `to` is 0. */
export async function migrateDown(sequelize: Sequelize, set: MigrationSet, to: string | 0 = 0): Promise<string[]> {
  return sequelize.transaction(async () => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(hashtext('wpk-migrations'))`);
    const storage = bookkeeping(sequelize, set.schema);
    const executed = await storage.executed();
    // Applied migrations in declared order, newest first; names the set does not declare are ignored.
    const applied = set.migrations.filter((migration) => executed.has(migration.name)).reverse();
    let count = 1;
    if (to === 0) count = applied.length;
    else if (to) {
      const index = applied.findIndex((migration) => migration.name === to);
      if (index === -1) throw new Error(`Couldn't find migration to apply with name ${JSON.stringify(to)}`);
      count = index + 1;
    }
    const reverted = applied.slice(0, count);
    const context = contextOf(sequelize, set);
    for (const migration of reverted) {
      await run(migration, 'down', context);
      await storage.unlog(migration.name);
    }
    return reverted.map((migration) => migration.name);
  });
}

/** Names of the schema's migrations not yet applied. */
export async function pendingMigrations(sequelize: Sequelize, set: MigrationSet): Promise<string[]> {
  return sequelize.transaction(async () => {
    await sequelize.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(set.schema)}`);
    const executed = await bookkeeping(sequelize, set.schema).executed();
    return set.migrations.filter((migration) => !executed.has(migration.name)).map((migration) => migration.name);
  });
}
