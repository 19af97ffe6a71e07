/**
 * The Finance app's test fixture, built on @wpk/testing: a real platform with the app loaded as
 * first-party, one workspace where it is installed and its install event delivered (so the
 * default chart is seeded), and short ways to get the callers the tests need. Every test file
 * starts one (`startWorld`) and closes it.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestResponse, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';

export type Caller = TestMember;

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  workspaceId: string;
  owner: Caller;
  /** A member allowed into the app holding exactly these finance keys. */
  member(keys: string[]): Promise<Caller>;
  /** The `core.finance.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  query<T extends object = Record<string, unknown>>(sql: string, replacements?: Record<string, unknown>): Promise<T[]>;
  /** Rows of every finance table, to prove a refused request wrote nothing. */
  counts(): Promise<Record<string, number>>;
  /** The account id of a code. */
  account(code: string): Promise<string>;
  /** Another workspace on the same platform (the app installed and seeded unless install is false). */
  another(subdomain: string, options?: { install?: boolean }): Promise<World>;
  close(): Promise<void>;
}

export type { TestResponse };

export const TABLES = ['accounts', 'bills', 'journal_entries', 'journal_lines', 'budgets', 'books'];

export async function startWorld(subdomain: string, options: { install?: boolean } = {}): Promise<World> {
  const platform = await createTestPlatform({ apps: [app], firstParty: true });
  try {
    return await worldOn(platform, subdomain, options);
  } catch (error) {
    await platform.close();
    throw error;
  }
}

async function worldOn(platform: TestPlatform, subdomain: string, options: { install?: boolean }): Promise<World> {
  const workspace = await platform.workspace(subdomain);
  if (options.install ?? true) {
    await workspace.install('finance');
    const result = await platform.deliver(workspace.id, 'system.app.installed', { app_slug: 'finance', installed_by: workspace.owner.id });
    if (result.finance !== 'handled') throw new Error(`install event: ${JSON.stringify(result)}`);
  }
  platform.takeEvents();
  const codes = new Map<string, string>();
  return {
    platform,
    workspace,
    workspaceId: workspace.id,
    owner: workspace.owner,
    member: (keys) => workspace.member({ permissions: keys }),
    takeEvents: () =>
      platform
        .takeEvents()
        .filter((event) => event.action.startsWith('core.finance.'))
        .map((event) => ({ action: event.action, payload: event.payload })),
    query: (sql, replacements) => platform.query(sql, replacements),
    async counts() {
      const out: Record<string, number> = {};
      for (const table of TABLES) {
        const [row] = await platform.query<{ n: string }>(`SELECT count(*) AS n FROM app_finance.${table} WHERE workspace_id = :ws`, { ws: workspace.id });
        out[table] = Number(row!.n);
      }
      return out;
    },
    async account(code) {
      if (!codes.has(code)) {
        const [row] = await platform.query<{ id: string }>('SELECT id FROM app_finance.accounts WHERE workspace_id = :ws AND code = :code', { ws: workspace.id, code });
        if (!row) throw new Error(`no account ${code}`);
        codes.set(code, row.id);
      }
      return codes.get(code)!;
    },
    another: (name, more = {}) => worldOn(platform, name, more),
    close: () => platform.close(),
  };
}
