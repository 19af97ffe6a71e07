import { ConflictError, InvalidError, isUuid, memberIdFromMrn, type AppContext, type BaseContext, type EventContext, type PublicContext } from '@wpk/sdk';
import type { AppTypes, EmittedEvents } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type AtsContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type AtsEventContext = EventContext<Models, AppTypes>;
/** What a public route (the careers page, the self-schedule link) hands a service: no caller. */
export type AtsPublicContext = PublicContext<Models, AppTypes>;
/** A route's context, with or without a caller (services shared by the API and the public pages). */
export type AtsRequestContext = AtsContext | AtsPublicContext;
/** The parts every context shares (db, events, search, settings, storage). */
export type AtsBaseContext = BaseContext<Models, AppTypes>;

/** Stages one event; it leaves only if the request answers 2xx. */
export function emit<A extends keyof EmittedEvents>(ctx: AtsBaseContext, action: A, payload: EmittedEvents[A]): void {
  ctx.events.stage(action, payload);
}

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Refuses a member MRN that names no present member of the workspace: the shape must be
 * `mrn:account:member:{uuid}`, and the app's copy of the members (fed by events) must not know
 * the member as removed.
 */
export async function assertMember(ctx: AtsBaseContext, mrn: string, field: string): Promise<void> {
  const memberId = memberIdFromMrn(mrn);
  if (!memberId || !isUuid(memberId)) throw new InvalidError(`${field} ${mrn} is not a member MRN (mrn:account:member:{id})`);
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${mrn} is no longer a member of this workspace`);
}

/** Runs an insert whose uniqueness was checked before; a concurrent duplicate answers 409 with `message`. */
export async function conflictOnDuplicate<T>(insert: Promise<T>, message: string): Promise<T> {
  try {
    return await insert;
  } catch (error) {
    if ((error as { name?: unknown })?.name === 'SequelizeUniqueConstraintError') throw new ConflictError(message);
    throw error;
  }
}

/** Whole days between two instants (floor), never negative. */
export function daysBetween(from: Date, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / 86_400_000));
}
