import { ConflictError, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes, Settings } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type FilesContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type FilesEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares. */
export type FilesBaseContext = BaseContext<Models, AppTypes>;
export type FilesSettings = Settings;

/** `mrn:account:member:{id}` of a member id. */
export function mrnOf(memberId: string): string {
  return `mrn:account:member:${memberId}`;
}

const MEMBER_MRN = /^mrn:account:member:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The member id an MRN names, or null when it is not a member MRN. */
export function memberIdOf(mrn: string): string | null {
  const match = MEMBER_MRN.exec(mrn.trim());
  return match ? match[1].toLowerCase() : null;
}

/** A PostgreSQL bigint as a number (sizes stay far below 2^53). */
export function bytes(value: number | string | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** Runs an insert or update whose name uniqueness was checked: a concurrent request that took the name in between answers 409. */
export async function conflictOnDuplicate<T>(write: Promise<T>, message: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if ((error as { name?: unknown })?.name === 'SequelizeUniqueConstraintError') throw new ConflictError(message);
    throw error;
  }
}
