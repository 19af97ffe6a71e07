import { QueryTypes, type Sequelize } from 'sequelize';
import type { Migration } from '../migrations.js';

/**
 * Keys a distributed PostgreSQL (Citus) can shard by workspace (docs/scale-out.md): every tenant
 * table's primary key and unique indexes contain `workspace_id`; every foreign key
 * between tenant tables carries `workspace_id` at the same position, and none is `SET NULL` (the
 * nullable references are cleared by the code that deletes, in the same transaction). The search
 * dictionary loses its statement triggers and its advisory locks: `SearchIndex` maintains it in
 * the statement that writes the record (see docs/search.md). Session and API-key hashes are only
 * unique within their workspace now; `platform.credential_hashes` (coordinator-only) keeps them
 * unique across workspaces and says which workspace a hash belongs to, so a credential can be
 * recognised from any host.
 */

/** Foreign keys between tenant tables by id alone (dropped), and their composite replacements. */
const REFERENCES: Array<{ table: string; name: string; columns: string; target: string; onDelete: 'CASCADE' | 'NO ACTION'; old: string }> = [
  { table: 'members', name: 'members_invited_by_fkey', columns: 'invited_by', target: 'members', onDelete: 'NO ACTION', old: 'ON DELETE SET NULL' },
  { table: 'sessions', name: 'sessions_member_id_fkey', columns: 'member_id', target: 'members', onDelete: 'CASCADE', old: 'ON DELETE CASCADE' },
  { table: 'invitations', name: 'invitations_member_id_fkey', columns: 'member_id', target: 'members', onDelete: 'CASCADE', old: 'ON DELETE CASCADE' },
  { table: 'invitations', name: 'invitations_invited_by_fkey', columns: 'invited_by', target: 'members', onDelete: 'NO ACTION', old: 'ON DELETE SET NULL' },
  { table: 'admin_audit', name: 'admin_audit_actor_member_id_fkey', columns: 'actor_member_id', target: 'members', onDelete: 'CASCADE', old: 'ON DELETE CASCADE' },
  { table: 'activity', name: 'activity_actor_member_id_fkey', columns: 'actor_member_id', target: 'members', onDelete: 'NO ACTION', old: 'ON DELETE SET NULL' },
  { table: 'app_installations', name: 'app_installations_installed_by_fkey', columns: 'installed_by', target: 'members', onDelete: 'NO ACTION', old: 'ON DELETE SET NULL' },
  { table: 'app_installations', name: 'app_installations_uninstalled_by_fkey', columns: 'uninstalled_by', target: 'members', onDelete: 'NO ACTION', old: 'ON DELETE SET NULL' },
  { table: 'event_dedupe', name: 'event_dedupe_event_id_fkey', columns: 'event_id', target: 'events', onDelete: 'CASCADE', old: 'ON DELETE CASCADE' },
  { table: 'event_deliveries', name: 'event_deliveries_event_id_fkey', columns: 'event_id', target: 'events', onDelete: 'CASCADE', old: 'ON DELETE CASCADE' },
  { table: 'event_deliveries', name: 'event_deliveries_replay_of_fkey', columns: 'replay_of', target: 'event_deliveries', onDelete: 'NO ACTION', old: 'ON DELETE SET NULL' },
  { table: 'api_key_audit', name: 'api_key_audit_key_id_fkey', columns: 'key_id', target: 'api_keys', onDelete: 'CASCADE', old: 'ON DELETE CASCADE' },
];

/** Composite foreign keys that pointed at the `UNIQUE (workspace_id, id)` of members and roles; they move to the new primary keys. */
const COMPOSITE: Array<{ table: string; name: string; column: string; target: string }> = [
  { table: 'member_roles', name: 'member_roles_workspace_id_member_id_fkey', column: 'member_id', target: 'members' },
  { table: 'member_roles', name: 'member_roles_workspace_id_role_id_fkey', column: 'role_id', target: 'roles' },
  { table: 'app_requests', name: 'app_requests_workspace_id_member_id_fkey', column: 'member_id', target: 'members' },
  { table: 'notifications', name: 'notifications_workspace_id_member_id_fkey', column: 'member_id', target: 'members' },
  { table: 'api_keys', name: 'api_keys_workspace_id_member_id_fkey', column: 'member_id', target: 'members' },
];

/**
 * Tables whose primary key was `id` alone; it becomes `(id, workspace_id)`. Core appends
 * `workspace_id` to its existing keys rather than leading with it, so that every look-up by id
 * alone that core still makes (a delivery by its id, a member by `findByPk`) keeps using the
 * primary key; a look-up by `(workspace_id, id)` uses it as well. Foreign keys name the
 * columns as `(workspace_id, id)`: PostgreSQL matches them to the key whatever its order.
 */
const BY_ID = ['members', 'roles', 'sessions', 'invitations', 'admin_audit', 'activity', 'app_requests', 'notifications', 'events', 'event_deliveries', 'search_records', 'api_keys', 'api_key_audit'];

/** Hashes that were unique alone; they become unique per workspace (hash first, so a look-up by hash alone still uses the index). */
const HASHES: Array<{ table: string; name: string; column: string; constraint: boolean }> = [
  { table: 'sessions', name: 'sessions_token_hash_key', column: 'token_hash', constraint: true },
  { table: 'invitations', name: 'invitations_token_hash_key', column: 'token_hash', constraint: true },
  { table: 'api_keys', name: 'api_keys_secret_hash_key', column: 'secret_hash', constraint: false },
];

async function run(sequelize: Sequelize, statements: string[]): Promise<void> {
  await sequelize.query(statements.join(';\n'));
}

export const migration: Migration = {
  name: '0600-distribution-keys',
  async up({ sequelize }) {
    const statements: string[] = [];
    for (const fk of REFERENCES) statements.push(`ALTER TABLE platform.${fk.table} DROP CONSTRAINT ${fk.name}`);
    for (const fk of COMPOSITE) statements.push(`ALTER TABLE platform.${fk.table} DROP CONSTRAINT ${fk.name}`);
    statements.push('ALTER TABLE platform.members DROP CONSTRAINT members_workspace_id_id_key', 'ALTER TABLE platform.roles DROP CONSTRAINT roles_workspace_id_id_key');
    for (const table of BY_ID) statements.push(`ALTER TABLE platform.${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (id, workspace_id)`);
    statements.push('ALTER TABLE platform.member_roles DROP CONSTRAINT member_roles_pkey, ADD CONSTRAINT member_roles_pkey PRIMARY KEY (member_id, role_id, workspace_id)');
    for (const hash of HASHES) {
      statements.push(hash.constraint ? `ALTER TABLE platform.${hash.table} DROP CONSTRAINT ${hash.name}` : `DROP INDEX platform.${hash.name}`);
      statements.push(`CREATE UNIQUE INDEX ${hash.name} ON platform.${hash.table} (${hash.column}, workspace_id)`);
    }
    for (const fk of COMPOSITE) {
      statements.push(`ALTER TABLE platform.${fk.table} ADD CONSTRAINT ${fk.name} FOREIGN KEY (workspace_id, ${fk.column}) REFERENCES platform.${fk.target} (workspace_id, id) ON DELETE CASCADE`);
    }
    for (const fk of REFERENCES) {
      statements.push(`ALTER TABLE platform.${fk.table} ADD CONSTRAINT ${fk.name} FOREIGN KEY (workspace_id, ${fk.columns}) REFERENCES platform.${fk.target} (workspace_id, id) ON DELETE ${fk.onDelete}`);
    }
    // The dictionary is written by SearchIndex in the record's own statement (no trigger, no advisory lock).
    statements.push(
      'DROP TRIGGER search_words_on_insert ON platform.search_records',
      'DROP TRIGGER search_words_on_update ON platform.search_records',
      'DROP FUNCTION platform.search_words_collect()',
    );
    // Which workspace a session or API-key hash belongs to (coordinator-only: read before the workspace is known).
    statements.push(`CREATE TABLE platform.credential_hashes (
        hash char(64) PRIMARY KEY,
        kind varchar(10) NOT NULL CHECK (kind IN ('session', 'api_key')),
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    statements.push('CREATE INDEX credential_hashes_expires_idx ON platform.credential_hashes (expires_at) WHERE expires_at IS NOT NULL');
    statements.push(`INSERT INTO platform.credential_hashes (hash, kind, workspace_id, expires_at)
        SELECT token_hash, 'session', workspace_id, expires_at FROM platform.sessions
        UNION ALL SELECT secret_hash, 'api_key', workspace_id, NULL FROM platform.api_keys`);
    await run(sequelize, statements);
  },
  async down({ sequelize }) {
    // Two workspaces may now hold the same hash; going back to one-hash-one-row must not hide that.
    const [clash] = await sequelize.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM (SELECT token_hash FROM platform.sessions GROUP BY 1 HAVING count(*) > 1) s)
            + (SELECT count(*) FROM (SELECT token_hash FROM platform.invitations GROUP BY 1 HAVING count(*) > 1) i)
            + (SELECT count(*) FROM (SELECT secret_hash FROM platform.api_keys GROUP BY 1 HAVING count(*) > 1) k) AS n`,
      { type: QueryTypes.SELECT },
    );
    if (Number(clash.n) > 0) throw new Error('0600-distribution-keys cannot be reverted: a session, invitation or API-key hash is held by two workspaces');
    const statements: string[] = ['DROP TABLE platform.credential_hashes'];
    for (const fk of [...REFERENCES, ...COMPOSITE]) statements.push(`ALTER TABLE platform.${fk.table} DROP CONSTRAINT ${fk.name}`);
    for (const hash of HASHES) {
      statements.push(`DROP INDEX platform.${hash.name}`);
      statements.push(hash.constraint ? `ALTER TABLE platform.${hash.table} ADD CONSTRAINT ${hash.name} UNIQUE (${hash.column})` : `CREATE UNIQUE INDEX ${hash.name} ON platform.${hash.table} (${hash.column})`);
    }
    statements.push('ALTER TABLE platform.member_roles DROP CONSTRAINT member_roles_pkey, ADD CONSTRAINT member_roles_pkey PRIMARY KEY (member_id, role_id)');
    for (const table of BY_ID) statements.push(`ALTER TABLE platform.${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (id)`);
    statements.push(
      'ALTER TABLE platform.members ADD CONSTRAINT members_workspace_id_id_key UNIQUE (workspace_id, id)',
      'ALTER TABLE platform.roles ADD CONSTRAINT roles_workspace_id_id_key UNIQUE (workspace_id, id)',
    );
    for (const fk of COMPOSITE) {
      statements.push(`ALTER TABLE platform.${fk.table} ADD CONSTRAINT ${fk.name} FOREIGN KEY (workspace_id, ${fk.column}) REFERENCES platform.${fk.target} (workspace_id, id) ON DELETE CASCADE`);
    }
    for (const fk of REFERENCES) {
      statements.push(`ALTER TABLE platform.${fk.table} ADD CONSTRAINT ${fk.name} FOREIGN KEY (${fk.columns}) REFERENCES platform.${fk.target} (id) ${fk.old}`);
    }
    statements.push(`CREATE FUNCTION platform.search_words_collect() RETURNS trigger
        LANGUAGE plpgsql
        AS $fn$
        BEGIN
          PERFORM pg_advisory_xact_lock_shared(hashtext('wpk-search-words'), hashtext(w.workspace_id::text))
          FROM (SELECT DISTINCT workspace_id FROM changed ORDER BY 1) AS w;
          INSERT INTO platform.search_words (workspace_id, word)
          SELECT n.workspace_id, n.word
          FROM (SELECT DISTINCT c.workspace_id, w AS word FROM changed c CROSS JOIN LATERAL unnest(c.words) AS w) AS n
          WHERE NOT EXISTS (SELECT 1 FROM platform.search_words d WHERE d.workspace_id = n.workspace_id AND d.word = n.word)
          ORDER BY 1, 2
          ON CONFLICT (workspace_id, word) DO NOTHING;
          RETURN NULL;
        END
        $fn$`);
    statements.push(`CREATE TRIGGER search_words_on_insert AFTER INSERT ON platform.search_records
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION platform.search_words_collect()`);
    statements.push(`CREATE TRIGGER search_words_on_update AFTER UPDATE ON platform.search_records
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION platform.search_words_collect()`);
    await run(sequelize, statements);
  },
};
