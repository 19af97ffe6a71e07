import type { AppMigration } from '@wpk/sdk';
import type { Sequelize } from 'sequelize';
import type { Migration } from '../db/index.js';
import type { LoadedApp } from './loader.js';

/** An app migration as core's runner takes it: run with `search_path` on the app's schema. */
export function appMigration(app: LoadedApp, migration: AppMigration): Migration {
  const run = async (sequelize: Sequelize, direction: 'up' | 'down') => {
    const step = migration[direction];
    if (!step) throw new Error(`${app.namespace}: migration ${migration.name} cannot be reverted`);
    await sequelize.query(`SET LOCAL search_path TO "${app.schema}", public`);
    await step.call(migration, {
      schema: app.schema,
      query: async (sql: string, replacements?: Record<string, unknown>) => {
        const [rows] = await sequelize.query(sql, replacements ? { replacements } : {});
        return rows as unknown[];
      },
    });
    await sequelize.query('SET LOCAL search_path TO DEFAULT');
  };
  return {
    name: migration.name,
    up: ({ sequelize }) => run(sequelize, 'up'),
    down: migration.down ? ({ sequelize }) => run(sequelize, 'down') : undefined,
  };
}
