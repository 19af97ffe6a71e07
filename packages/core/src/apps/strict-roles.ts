import { createHash } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { LoadedApp } from './loader.js';

const quote = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Invalid identifier: ${name}`);
  return `"${name}"`;
};

/**
 * Strict mode: each app gets a database role (NOLOGIN) with rights on its own schema only. Its
 * request and event work runs under `SET LOCAL ROLE` inside the transaction, so even SQL smuggled
 * into a query (a literal in a where clause) cannot read the platform's or another app's tables.
 * Roles are cluster-wide in PostgreSQL; their names carry a hash of the database name so two
 * databases on one server (or two test runs) never share one.
 */
export class StrictRoles {
  private constructor(
    private readonly sequelize: Sequelize,
    private readonly database: string,
  ) {}

  static async open(sequelize: Sequelize): Promise<StrictRoles> {
    const [{ name }] = await sequelize.query<{ name: string }>('SELECT current_database() AS name', { type: QueryTypes.SELECT });
    return new StrictRoles(sequelize, name);
  }

  /** The role of an app in this database, e.g. `wpk_3fa2c1d0_ext_acme_hello` (at most 63 characters). */
  roleName(app: Pick<LoadedApp, 'schema'>): string {
    const tag = createHash('sha256').update(this.database).digest('hex').slice(0, 8);
    return `wpk_${tag}_${app.schema}`.slice(0, 63);
  }

  /** Creates the role when missing and grants it its schema's tables and sequences (run after migrations). */
  async grant(app: Pick<LoadedApp, 'schema'>): Promise<void> {
    const role = this.roleName(app);
    const schema = quote(app.schema);
    await this.sequelize.transaction(async () => {
      await this.sequelize.query(`SELECT pg_advisory_xact_lock(hashtext('wpk-strict-roles'))`);
      const exists = await this.sequelize.query('SELECT 1 FROM pg_roles WHERE rolname = :role', { type: QueryTypes.SELECT, replacements: { role } });
      if (exists.length === 0) await this.sequelize.query(`CREATE ROLE ${quote(role)} NOLOGIN`);
      const [{ superuser }] = await this.sequelize.query<{ superuser: boolean }>(`SELECT rolsuper AS superuser FROM pg_roles WHERE rolname = current_user`, { type: QueryTypes.SELECT });
      if (!superuser) await this.sequelize.query(`GRANT ${quote(role)} TO CURRENT_USER`);
      await this.sequelize.query(`
        REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC;
        GRANT USAGE ON SCHEMA ${schema} TO ${quote(role)};
        GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${quote(role)};
        GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${quote(role)};
      `);
    });
  }

  /** Switches the current transaction to the app's role (`SET LOCAL ROLE`). */
  async enter(app: Pick<LoadedApp, 'schema'>): Promise<void> {
    await this.sequelize.query(`SET LOCAL ROLE ${quote(this.roleName(app))}`);
  }

  /** Back to the runtime's own role for the rest of the transaction (outbox, search index). */
  async leave(): Promise<void> {
    await this.sequelize.query('SET LOCAL ROLE NONE');
  }

  /** Drops the app roles of this database (tests; the database must have no other use for them). */
  async drop(apps: Array<Pick<LoadedApp, 'schema'>>): Promise<void> {
    for (const app of apps) {
      const role = quote(this.roleName(app));
      const exists = await this.sequelize.query('SELECT 1 FROM pg_roles WHERE rolname = :role', { type: QueryTypes.SELECT, replacements: { role: this.roleName(app) } });
      if (exists.length === 0) continue;
      await this.sequelize.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
    }
  }
}
