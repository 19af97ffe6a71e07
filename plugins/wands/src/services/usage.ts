import { sumOf } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { Run, Wand } from '../models/index.js';

/** What one unit of work metered (for `core.wands.usage.recorded`). */
export interface UsageTally {
  steps: number;
  tokens: number;
  microns: number;
}

/** The workspace's microns of a period (`YYYY-MM`), summed in SQL as an exact integer. */
export async function periodMicrons(ctx: AnyCtx, period: string): Promise<number> {
  const [row] = (await ctx.db.usage.findAll({ attributes: [[sumOf('microns'), 'total']] as never, where: { period } })) as unknown as Array<{ total: string | number | null }>;
  return Number(row?.total ?? 0);
}

/** The allowance of the workspace's plan (the settings' per-plan table, else the default). */
export function allowanceOf(ctx: AnyCtx): number {
  const byPlan = ctx.settings.plan_allowances as Record<string, number>;
  return Object.hasOwn(byPlan, ctx.workspace.plan) ? byPlan[ctx.workspace.plan] : ctx.settings.monthly_allowance;
}

/**
 * Records a metered use when the month's allowance can pay for it (false, and nothing recorded,
 * when it cannot): the app's own row (the allowance's sum) and the platform's ledger record that
 * the usage invoice bills. The workspace's usage lock makes check-then-write safe against a concurrent run.
 */
export async function recordUsage(ctx: AnyCtx, wand: Wand, run: Run, kind: 'step' | 'ai_tokens', quantity: number, dedupeKey: string, tally: UsageTally, options: { force?: boolean } = {}): Promise<boolean> {
  const price = kind === 'step' ? ctx.settings.step_microns : ctx.settings.token_microns;
  const microns = price * quantity;
  const period = ctx.now().toISOString().slice(0, 7);
  await ctx.lock('usage');
  if (!options.force && (await periodMicrons(ctx, period)) + microns > allowanceOf(ctx)) return false;
  await ctx.db.usage.create({ wand_id: wand.id, run_id: run.id, kind, quantity, microns, period, dedupe_key: dedupeKey });
  // The platform bills it (ctx.usage, docs/billing.md "Metered usage"), in this same unit of work
  // and under the same key: a step that rolls back is neither counted here nor billed there.
  if (microns > 0) await ctx.usage!.record(kind === 'step' ? 'steps' : 'ai_tokens', microns, { key: dedupeKey });
  run.microns = Number(run.microns) + microns;
  await ctx.db.runs.update({ microns: run.microns }, { where: { id: run.id } });
  tally.microns += microns;
  if (kind === 'step') tally.steps += quantity;
  else tally.tokens += quantity;
  return true;
}

/** `GET /wands/usage`: this month's microns (SQL sums), the allowance, what remains, by wand. */
export async function usageOf(ctx: AnyCtx) {
  const period = ctx.now().toISOString().slice(0, 7);
  const microns = await periodMicrons(ctx, period);
  const allowance = allowanceOf(ctx);
  const rows = (await ctx.db.usage.findAll({ attributes: ['wand_id', [sumOf('microns'), 'total']] as never, where: { period }, group: ['wand_id'], order: [['wand_id', 'ASC']] })) as unknown as Array<{ wand_id: string; total: string | number }>;
  return { period, microns, allowance, remaining: Math.max(0, allowance - microns), by_wand: rows.map((row) => ({ wand_id: row.wand_id, microns: Number(row.total) })) };
}
