import { Runtime, createScratchDatabase, installResponseValidation, type RuntimeOptions } from '../../src/index.js';
import { loadTenantTables, statementRecorder } from './statements.js';

/** A migrated runtime on a fresh database (embedded in memory, or a scratch PostgreSQL database). */
export interface TestRuntime {
  runtime: Runtime;
  close(): Promise<void>;
}

/**
 * Boots a real runtime for one test file. Without TEST_DATABASE_URL / DATABASE_URL it runs the
 * embedded database in memory; with one, it creates a scratch database there and drops it on close.
 * Every answer is checked against the server's OpenAPI document; close() fails on a mismatch.
 */
export async function startTestRuntime(options: RuntimeOptions = {}): Promise<TestRuntime> {
  const statements = await statementRecorder();
  const scratch = await createScratchDatabase(undefined, options);
  const runtime = await Runtime.create({ logLevel: 'silent', port: 0, ...options, databaseUrl: scratch.url, inMemory: scratch.url === undefined });
  try {
    await (statements ? statements.during('migrations', () => runtime.migrate()) : runtime.migrate());
    if (statements) await loadTenantTables(statements, runtime);
  } catch (error) {
    await runtime.stop();
    await scratch.drop();
    throw error;
  }
  const responses = installResponseValidation(runtime.server, () => runtime.openApiDocument());
  return {
    runtime,
    async close() {
      try {
        await runtime.stop();
      } finally {
        await scratch.drop();
      }
      responses.assertClean();
      statements?.assertClean();
    },
  };
}

/** Headers of an API call to a workspace subdomain. */
export function apiHeaders(subdomain: string, extra: Record<string, string> = {}): Record<string, string> {
  return { host: `${subdomain}.localhost`, 'x-api-version': '2026-11-01', ...extra };
}
