/**
 * What the Finance tests add to `startWorld` of @wpk/testing: the install event delivered (so the
 * default chart is seeded), the row counts that prove a refused request wrote nothing, account
 * ids by code, and another workspace of the same platform set up the same way.
 */
import { prepareWorld, startWorld, type World } from '@wpk/testing';
import app from '../../src/index.js';

export const TABLES = ['accounts', 'bills', 'journal_entries', 'journal_lines', 'budgets', 'books'];

export interface FinanceWorld extends World {
  /** Rows of every finance table in this workspace. */
  counts(): Promise<Record<string, number>>;
  /** The account id of a code. */
  account(code: string): Promise<string>;
  /** Another workspace on the same platform (the app installed and seeded unless install is false). */
  another(subdomain: string, options?: { install?: boolean }): Promise<FinanceWorld>;
}

export async function financeWorld(subdomain: string): Promise<FinanceWorld> {
  const world = await startWorld({ app, subdomain });
  return prepareWorld(world, async () => {
    await world.deliver('system.app.installed', { app_slug: 'finance', installed_by: world.owner.id });
    world.takeEvents();
    return withFinance(world);
  });
}

function withFinance(world: World): FinanceWorld {
  const codes = new Map<string, string>();
  return {
    ...world,
    async counts() {
      const out: Record<string, number> = {};
      for (const table of TABLES) {
        const [row] = await world.query<{ n: string }>(`SELECT count(*) AS n FROM app_finance.${table} WHERE workspace_id = :ws`, { ws: world.workspaceId });
        out[table] = Number(row!.n);
      }
      return out;
    },
    async account(code) {
      if (!codes.has(code)) {
        const [row] = await world.query<{ id: string }>('SELECT id FROM app_finance.accounts WHERE workspace_id = :ws AND code = :code', { ws: world.workspaceId, code });
        if (!row) throw new Error(`no account ${code}`);
        codes.set(code, row.id);
      }
      return codes.get(code)!;
    },
    async another(subdomain, options = {}) {
      const workspace = await world.platform.workspace(subdomain);
      if (options.install !== false) await workspace.install('finance');
      const other = withFinance({
        ...world,
        workspace,
        workspaceId: workspace.id,
        owner: workspace.owner,
        member: (keys = [], memberOptions = {}) => workspace.member({ ...memberOptions, permissions: keys }),
        deliver: (action, payload, deliverOptions = {}) => world.deliver(action, payload, { ...deliverOptions, workspaceId: workspace.id }),
      });
      if (options.install !== false) await other.deliver('system.app.installed', { app_slug: 'finance', installed_by: workspace.owner.id });
      world.takeEvents();
      return other;
    },
  };
}
