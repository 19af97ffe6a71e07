import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { formatAmount, roundHalfUp } from './money.js';

/** Microns per cent: a micron is 10⁻⁶ of the currency, a cent 10⁻². */
const MICRONS_PER_CENT = 10_000n;

/**
 * Writes one record of metered usage (`ctx.usage.record`) in `transaction`. With a key, a second
 * record of the same key (per workspace and app) writes nothing: false.
 */
export async function recordUsage(
  sequelize: Sequelize,
  transaction: Transaction,
  record: { workspaceId: string; app: string; meter: string; microns: number; key: string | null; at: Date },
): Promise<boolean> {
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO platform.metered_usage (workspace_id, app, meter, microns, idempotency_key, recorded_at)
     VALUES (:workspaceId, :app, :meter, :microns, :key, :at)
     ON CONFLICT (workspace_id, app, idempotency_key) DO NOTHING RETURNING id`,
    { transaction, type: QueryTypes.SELECT, replacements: { ...record, microns: String(record.microns) } },
  );
  return rows.length === 1;
}

/** One app's meter over a window: its microns (exact, as a decimal string) and their amount in cents. */
export interface MeteredLine {
  app: string;
  meter: string;
  microns: bigint;
  cents: bigint;
}

/** Microns → cents, rounded to the nearest cent, halves up (exact integer arithmetic). */
export function centsOf(microns: bigint): bigint {
  return roundHalfUp(microns, MICRONS_PER_CENT);
}

/**
 * The workspace's metered usage recorded in `[from, to)`, summed in SQL per app and meter (in the
 * ambient transaction, if any), ordered by app then meter; each line's amount is its own rounding.
 */
export async function meteredLines(sequelize: Sequelize, workspaceId: string, from: Date, to: Date): Promise<MeteredLine[]> {
  const rows = await sequelize.query<{ app: string; meter: string; microns: string }>(
    `SELECT app, meter, sum(microns)::text AS microns FROM platform.metered_usage
      WHERE workspace_id = :workspaceId AND recorded_at >= :from AND recorded_at < :to
      GROUP BY app, meter ORDER BY app, meter`,
    { type: QueryTypes.SELECT, replacements: { workspaceId, from, to } },
  );
  return rows.map((row) => {
    const microns = BigInt(row.microns);
    return { app: row.app, meter: row.meter, microns, cents: centsOf(microns) };
  });
}

/** A line as the API shows it: microns as an integer (exact: a month's sum stays far below 2⁵³), the amount as money. */
export function presentMetered(line: MeteredLine): { app: string; meter: string; microns: number; amount: string } {
  return { app: line.app, meter: line.meter, microns: Number(line.microns), amount: formatAmount(line.cents) };
}
