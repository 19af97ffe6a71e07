import type { Sequelize } from 'sequelize';
import { hotRows, statement } from '../../db/index.js';
import { scopedDb } from '../models.js';
import type { ContextInputs } from './inputs.js';

/** `ctx.db` (the app's models, scoped to the workspace, through the work's gate) and `ctx.transaction`. */
export function dbOf({ runtime, workspace, work }: ContextInputs) {
  return { db: scopedDb(runtime.models, workspace.id, work.gate), transaction: work.transaction };
}

const LOCK = statement('SELECT pg_advisory_xact_lock(hashtext($1::text), hashtext($2::text))');

/**
 * `ctx.lock`: a transaction-scoped advisory lock on a key of the app in the workspace. Two 32-bit
 * halves: the app and workspace, then the key. The two-argument form has its own key space, so
 * these never meet a one-argument lock taken elsewhere. A lazily opened request transaction opens
 * now: the lock lasts until it ends.
 */
export function lockOf({ runtime, workspace, work }: ContextInputs) {
  const { app } = runtime;
  return async function lock(key: string) {
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) throw new TypeError(`${app.namespace}: ctx.lock takes a key of 1-200 characters`);
    const transaction = work.begin ? await work.begin() : work.transaction!;
    await hotRows((transaction as unknown as { sequelize: Sequelize }).sequelize, LOCK, [`${app.namespace}/${workspace.id}`, key], transaction);
  };
}
