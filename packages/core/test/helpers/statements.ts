import { loadModule, parseSync } from 'libpg-query';
import { PLATFORM_DISTRIBUTION, StatementRecorder, type Runtime } from '../../src/index.js';

/**
 * The query-shape check of core's suite (see src/db/statement-check.ts): every statement this
 * test process sends is recorded, and `close()` of a test runtime fails on a tenant-table access
 * with no workspace_id predicate. `WPK_STATEMENT_CHECK=off` turns it off (to see other failures first).
 */
export async function statementRecorder(): Promise<StatementRecorder | null> {
  if ((process.env.WPK_STATEMENT_CHECK ?? '').toLowerCase() === 'off') return null;
  await loadModule();
  return StatementRecorder.install({ parse: parseSync as never });
}

/** Reads the tenant tables of a migrated runtime's database (coordinator-only tables such as credential_hashes carry workspace_id but are not sharded). */
export async function loadTenantTables(recorder: StatementRecorder, runtime: Runtime): Promise<void> {
  await recorder.loadTenantTables((sql) => runtime.db.select<{ name: string }>(sql), Object.keys(PLATFORM_DISTRIBUTION.coordinator));
}
