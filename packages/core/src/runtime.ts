import type { Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import { resolveConfig, type RuntimeConfig, type RuntimeConfigInput } from './config.js';
import { Database, migrateUp, platformMigrations, type MigrationSet } from './db/index.js';
import { createLogger } from './logger.js';
import { healthRoutes } from './platform-routes/index.js';
import { createServer } from './server/index.js';
import { defineWorkspaceModel, WorkspaceService } from './tenancy/index.js';

export interface RuntimeOptions extends RuntimeConfigInput {
  /** A logger to use instead of one built from `logLevel`. */
  logger?: Logger;
}

/**
 * One platform process: configuration, database, the hapi server with every platform route,
 * and the services behind them. `Runtime.create` opens the database but neither migrates nor
 * listens; call `migrate()` and `start()`.
 */
export class Runtime {
  private constructor(
    readonly config: RuntimeConfig,
    readonly logger: Logger,
    readonly db: Database,
    readonly server: Server,
    readonly workspaces: WorkspaceService,
  ) {}

  static async create(options: RuntimeOptions = {}): Promise<Runtime> {
    const config = resolveConfig(options);
    const logger = options.logger ?? createLogger(config.logLevel);
    const db = await Database.open({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, inMemory: config.inMemory, logger });
    try {
      defineWorkspaceModel(db.sequelize);
      const workspaces = new WorkspaceService(db.sequelize);
      const server = await createServer({ host: config.host, port: config.port, baseDomain: config.baseDomain, workspaces, logger });
      server.route(healthRoutes(db));
      return new Runtime(config, logger, db, server, workspaces);
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  /** Every migration set this runtime owns: core's first, then each app's. */
  migrationSets(): MigrationSet[] {
    return [platformMigrations];
  }

  /** Runs pending migrations of every set; returns what ran, per schema. */
  async migrate(): Promise<Record<string, string[]>> {
    const applied: Record<string, string[]> = {};
    for (const set of this.migrationSets()) applied[set.schema] = await migrateUp(this.db.sequelize, set);
    return applied;
  }

  /** Starts listening; returns the base URL. */
  async start(): Promise<string> {
    await this.server.start();
    const { address, port } = this.server.info;
    const host = address && address.includes(':') ? `[${address}]` : address;
    return `http://${host}:${port}`;
  }

  /** Stops listening (letting requests in flight finish) and closes the database. */
  async stop(): Promise<void> {
    try {
      await this.server.stop({ timeout: 5000 });
    } finally {
      await this.db.close();
    }
  }
}
