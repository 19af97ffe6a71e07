import { InvalidError, isUuid, memberIdFromMrn, memberMrn } from '@wpk/sdk';
import type { MeetingsBaseContext, MeetingsContext } from './context.js';

/** The member id an MRN names, or a 400 naming the field. */
export function memberIdOf(mrn: unknown, field: string): string {
  const id = typeof mrn === 'string' ? memberIdFromMrn(mrn) : null;
  if (!id || !isUuid(id)) throw new InvalidError(`${field} must be a member MRN (mrn:account:member:{id})`);
  return id.toLowerCase();
}

/**
 * Remembers the caller's sign-in address and name: the app mails members' invitations to the
 * address it learned when they last used the app (it never reads the platform's member records).
 */
export async function learnCaller(ctx: MeetingsContext): Promise<void> {
  const email = ctx.member.email.toLowerCase();
  const name = ctx.member.name.slice(0, 200);
  const known = await ctx.db.memberAddresses.findOne({ where: { member_id: ctx.member.id } });
  if (known && known.email === email && known.name === name && known.removed_at === null) return;
  await ctx.db.memberAddresses.upsert({ member_id: ctx.member.id, email, name, removed_at: null }, { conflictFields: ['member_id'] });
}

/** A member's known address and name, or null (never used the app, nor given with an invitation; or removed). */
export async function addressOf(ctx: MeetingsBaseContext, memberId: string): Promise<{ email: string; name: string } | null> {
  const known = await ctx.db.memberAddresses.findOne({ where: { member_id: memberId } });
  return known && known.removed_at === null ? { email: known.email, name: known.name } : null;
}

/** Refuses a member the app knows as removed from the workspace. */
export async function assertMemberPresent(ctx: MeetingsBaseContext, memberId: string, field: string): Promise<void> {
  const known = await ctx.db.memberAddresses.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${memberMrn(memberId)} is no longer a member of this workspace`);
}
