import { InvalidError, type AppUsage, type UsageRecorded } from '@wpk/sdk';
import type { Transaction } from 'sequelize';
import { recordUsage } from '../../billing/index.js';
import type { ContextInputs } from './inputs.js';

/**
 * `ctx.usage` of an app whose manifest declares `meters`, or null. A record is one row of
 * `platform.metered_usage` written in the work's transaction (a lazily opened request transaction
 * opens now), so a work that rolls back records nothing. The ledger is in the platform schema: in
 * strict mode the call steps back to the runtime's role, as for claims.
 */
export function usageOf({ runtime, workspace, work, platform }: ContextInputs): AppUsage | null {
  const { app } = runtime;
  const meters = app.manifest.meters;
  if (!Array.isArray(meters) || meters.length === 0) return null;
  const declared = new Set(meters.map((meter) => meter.name));
  const { sequelize, strict } = platform;
  return Object.freeze({
    async record(meter: string, microns: number, options: { key?: string } = {}): Promise<UsageRecorded> {
      if (typeof meter !== 'string' || !declared.has(meter)) {
        throw new InvalidError(`ctx.usage.record: ${JSON.stringify(String(meter).slice(0, 60))} is not a meter this app declares (${[...declared].join(', ')})`);
      }
      if (typeof microns !== 'number' || !Number.isSafeInteger(microns) || microns <= 0 || microns > MAX_MICRONS) {
        throw new InvalidError(`ctx.usage.record: microns must be a whole number from 1 to ${MAX_MICRONS} (got ${JSON.stringify(microns)})`);
      }
      const key = options?.key;
      if (key !== undefined && (typeof key !== 'string' || key.length === 0 || key.length > 200)) throw new InvalidError('ctx.usage.record: key must be 1-200 characters');
      const transaction = (work.begin ? await work.begin() : work.transaction) as unknown as Transaction | null;
      if (!transaction) throw new Error('ctx.usage.record: the work has no transaction');
      const write = () => recordUsage(sequelize, transaction, { workspaceId: workspace.id, app: app.namespace, meter, microns, key: key ?? null, at: platform.clock() });
      const inTurn = () => (work.gate ? work.gate.write(write) : write());
      if (!strict) return { recorded: await inTurn() };
      await strict.leave();
      try {
        return { recorded: await inTurn() };
      } finally {
        await strict.enter(app);
      }
    },
  });
}

/** The most one record may carry: a million units of the currency. */
export const MAX_MICRONS = 1_000_000_000_000;
