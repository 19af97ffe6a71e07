import { Umzug, SequelizeStorage } from 'umzug';
import type { QueryInterface, Sequelize } from 'sequelize';

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

function build(sequelize: Sequelize, set: MigrationSet) {
  const context: MigrationContext = { sequelize, queryInterface: sequelize.getQueryInterface(), schema: set.schema };
  return new Umzug({
    migrations: set.migrations.map((migration) => ({
      name: migration.name,
      up: () => migration.up(context),
      down: async () => {
        if (!migration.down) throw new Error(`Migration ${set.schema}/${migration.name} cannot be reverted`);
        await migration.down(context);
      },
    })),
    context,
    storage: new SequelizeStorage({ sequelize, schema: set.schema, tableName: 'migrations', modelName: `migrations_${set.schema}` }),
    logger: undefined,
  });
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
    const umzug = build(sequelize, set);
    if (onProgress) {
      let since = 0;
      umzug.on('migrating', ({ name }) => {
        since = performance.now();
        onProgress({ schema: set.schema, name, phase: 'started' });
      });
      umzug.on('migrated', ({ name }) => onProgress({ schema: set.schema, name, phase: 'applied', ms: Math.round(performance.now() - since) }));
    }
    const applied = await umzug.up();
    return applied.map((migration) => migration.name);
  });
}

/** Reverts a schema's migrations down to `to`, `to` included (Umzug's meaning); all when `to` is 0. */
export async function migrateDown(sequelize: Sequelize, set: MigrationSet, to: string | 0 = 0): Promise<string[]> {
  return sequelize.transaction(async () => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(hashtext('wpk-migrations'))`);
    const reverted = await build(sequelize, set).down({ to });
    return reverted.map((migration) => migration.name);
  });
}

/** Names of the schema's migrations not yet applied. */
export async function pendingMigrations(sequelize: Sequelize, set: MigrationSet): Promise<string[]> {
  return sequelize.transaction(async () => {
    await sequelize.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(set.schema)}`);
    const pending = await build(sequelize, set).pending();
    return pending.map((migration) => migration.name);
  });
}
