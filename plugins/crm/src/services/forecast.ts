import { countOf, InvalidError, Op, sumOf } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import { cents, dec, money } from './money.js';
import { defaultPipeline, requirePipeline, stagesOf } from './pipelines.js';

/** The first and last day of a period: `2026`, `2026-Q2` or `2026-05`. */
export function periodRange(period: string): { from: string; to: string } {
  const pad = (n: number) => String(n).padStart(2, '0');
  const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
  let match = /^(\d{4})$/.exec(period);
  if (match) return { from: `${match[1]}-01-01`, to: `${match[1]}-12-31` };
  match = /^(\d{4})-Q([1-4])$/.exec(period);
  if (match) {
    const year = Number(match[1]);
    const first = (Number(match[2]) - 1) * 3 + 1;
    return { from: `${year}-${pad(first)}-01`, to: `${year}-${pad(first + 2)}-${pad(lastDay(year, first + 2))}` };
  }
  match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(period);
  if (match) return { from: `${match[1]}-${match[2]}-01`, to: `${match[1]}-${match[2]}-${pad(lastDay(Number(match[1]), Number(match[2])))}` };
  throw new InvalidError(`period: ${period} is no period (write 2026, 2026-Q2 or 2026-05)`, { field: 'period' });
}

/** The quarter of a day: `2026-Q2`. */
export const quarterOf = (day: Date): string => `${day.getUTCFullYear()}-Q${Math.floor(day.getUTCMonth() / 3) + 1}`;

interface SumRow { stage_id: string; currency: string; status: string; deals: string | number; amount: string | number }

/**
 * The weighted forecast of a pipeline for a period: the open deals closing in it, summed in SQL per
 * stage and currency (exact numerics), each sum weighed by its stage's probability; and the deals
 * won in it (closing date in the period), at their whole amount.
 */
export async function forecast(ctx: AnyCtx, query: { pipeline_id?: string; period?: string }) {
  const pipeline = query.pipeline_id !== undefined ? await requirePipeline(ctx, query.pipeline_id) : await defaultPipeline(ctx);
  const period = query.period ?? quarterOf(ctx.now());
  const { from, to } = periodRange(period);
  const stages = await stagesOf(ctx, pipeline.id);
  const sums = (await ctx.db.deals.findAll({
    attributes: ['stage_id', 'currency', 'status', [countOf('id'), 'deals'], [sumOf('amount'), 'amount']] as never,
    where: { pipeline_id: pipeline.id, status: ['open', 'won'], close_date: { [Op.between]: [from, to] } },
    group: ['stage_id', 'currency', 'status'],
  } as never)) as unknown as SumRow[];
  const open = sums.filter((row) => row.status === 'open');
  const currencies = [...new Set(sums.map((row) => row.currency))].sort();
  const rows = stages.map((stage) => {
    const own = open.filter((row) => row.stage_id === stage.id).sort((a, b) => a.currency.localeCompare(b.currency));
    return {
      stage_id: stage.id, name: stage.name, probability: stage.probability,
      deals: own.reduce((count, row) => count + Number(row.deals), 0),
      amounts: own.map((row) => ({ currency: row.currency, amount: money(row.amount), weighted: cents(dec(row.amount).times(stage.probability).dividedBy(100)) })),
    };
  });
  const totals = currencies.map((currency) => {
    const amounts = rows.flatMap((row) => row.amounts.filter((amount) => amount.currency === currency));
    const won = sums.filter((row) => row.status === 'won' && row.currency === currency).reduce((sum, row) => sum.plus(dec(row.amount)), dec(0));
    return {
      currency,
      amount: cents(amounts.reduce((sum, amount) => sum.plus(dec(amount.amount)), dec(0))),
      weighted: cents(amounts.reduce((sum, amount) => sum.plus(dec(amount.weighted)), dec(0))),
      won: cents(won),
    };
  });
  return { pipeline_id: pipeline.id, period, from, to, stages: rows, totals };
}
