import { ConflictError } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { EntryKind, LeaveType, LedgerEntry } from '../models/index.js';
import { units } from './days.js';

/** Today by the platform's clock, `YYYY-MM-DD` (UTC). */
export const today = (ctx: AnyCtx): string => ctx.now().toISOString().slice(0, 10);

/** Serialises every change of one worker's balance of one type (take it before reading the balance). */
export const lockBalance = (ctx: AnyCtx, workerId: string, typeId: string) => ctx.lock(`balance:${workerId}:${typeId}`);

/** What an entry records; `dedupe_key` makes it once-only. */
export interface EntryInput {
  worker_id: string;
  type_id: string;
  kind: EntryKind;
  amount: number;
  occurred_on: string;
  allocation_id?: string | null;
  request_id?: string | null;
  dedupe_key: string;
}

/**
 * Appends an entry unless one with its dedupe key exists (a repeated delivery, a retried accrual):
 * answers whether it was written. Entries are never changed or removed; a correction is another entry.
 */
export async function append(ctx: AnyCtx, entry: EntryInput): Promise<boolean> {
  if (await ctx.db.ledger.findOne({ where: { dedupe_key: entry.dedupe_key } })) return false;
  await ctx.db.ledger.create({ allocation_id: null, request_id: null, ...entry });
  return true;
}

/** The sum of the worker's entries of the type (hundredths), optionally only those before a day. */
export async function balanceOf(ctx: AnyCtx, workerId: string, typeId: string, before?: string): Promise<number> {
  const entries = await ctx.db.ledger.findAll({ where: { worker_id: workerId, type_id: typeId } });
  return entries.filter((entry) => !before || entry.occurred_on < before).reduce((sum, entry) => sum + entry.amount, 0);
}

/** Refuses taking `amount` when it would leave the balance below zero and the type does not allow it. */
export function assertCovers(type: LeaveType, balance: number, amount: number, what: string): void {
  if (!type.needs_allocation || type.allow_negative) return;
  if (balance - amount < 0) throw new ConflictError(`${what} needs ${units(amount)} ${type.unit === 'hour' ? 'hour(s)' : 'day(s)'} of ${type.name} but the balance is ${units(balance)}`);
}

/** A ledger entry as answered (amount in the type's unit). */
export function presentEntry(entry: LedgerEntry, running: number) {
  return {
    id: entry.id,
    worker_id: entry.worker_id,
    type_id: entry.type_id,
    kind: entry.kind,
    amount: units(entry.amount),
    balance_after: units(running),
    occurred_on: entry.occurred_on,
    allocation_id: entry.allocation_id,
    request_id: entry.request_id,
    created_at: entry.created_at,
  };
}

/** The worker's entries (optionally of one type), oldest first, each with the balance of its type after it. */
export async function ledgerOf(ctx: AnyCtx, workerId: string, typeId?: string) {
  const entries = await ctx.db.ledger.findAll({ where: { worker_id: workerId, ...(typeId ? { type_id: typeId } : {}) }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const running = new Map<string, number>();
  return entries.map((entry) => {
    const after = (running.get(entry.type_id) ?? 0) + entry.amount;
    running.set(entry.type_id, after);
    return presentEntry(entry, after);
  });
}
