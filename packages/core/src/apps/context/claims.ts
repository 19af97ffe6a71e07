import type { AppClaims } from '@wpk/sdk';
import type { Transaction } from 'sequelize';
import { releaseClaim, takeClaim } from '../claims.js';
import type { ContextInputs } from './inputs.js';

/**
 * `ctx.claims` of one app in one workspace. Claims live in the platform schema, which an app's
 * strict-mode role cannot reach: each call steps back to the runtime's role, in the work's
 * transaction (a lazily opened request transaction opens now).
 */
export function claimsOf({ runtime, workspace, work, platform }: ContextInputs): AppClaims {
  const { app } = runtime;
  const { sequelize, strict } = platform;
  const inWork = async <T>(call: (transaction: Transaction) => Promise<T>): Promise<T> => {
    const transaction = (work.begin ? await work.begin() : work.transaction!) as unknown as Transaction;
    if (!strict) return call(transaction);
    await strict.leave();
    try {
      return await call(transaction);
    } finally {
      await strict.enter(app);
    }
  };
  return Object.freeze({
    take: (kind: string, name: string) => inWork((transaction) => takeClaim(sequelize, transaction, { app: app.namespace, workspaceId: workspace.id, kind, name })),
    release: (kind: string, name: string) => inWork((transaction) => releaseClaim(sequelize, transaction, { app: app.namespace, workspaceId: workspace.id, kind, name })),
  });
}
