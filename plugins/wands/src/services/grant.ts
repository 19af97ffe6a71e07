import type { AnyCtx } from '../kit.js';
import type { Wand } from '../models/index.js';

/**
 * Why the owner's grant no longer covers the wand, or null when it does. Read fresh from the
 * platform every time (the API keys' zero-delay rule): a member removed or a role changed a moment
 * ago is seen at once. The wand's scopes must be a subset of the owner's current permissions.
 */
export async function ownerGrantProblem(ctx: AnyCtx, ownerId: string, scopes: readonly string[]): Promise<string | null> {
  const lacking = await ctx.members.lacks(ownerId, scopes);
  if (lacking === null) return 'The owner is no longer a member of the workspace';
  if (lacking.length > 0) return `The owner no longer holds ${lacking.join(', ')}`;
  return null;
}

/** Cancels a wand's scheduled cron firings (pause, suspension, deletion). */
export function withdrawSchedules(ctx: AnyCtx, wand: Wand): void {
  for (const trigger of wand.triggers.filter((one) => one.type === 'cron')) ctx.events.withdraw('core.wands.cron.fired', `cron:${wand.id}:${trigger.id}`);
}

/** Suspends an active or paused wand with the reason (once: a suspended wand stays as it is). */
export async function suspendWand(ctx: AnyCtx, wand: Wand, reason: string): Promise<void> {
  if (wand.status !== 'active' && wand.status !== 'paused') return;
  const from = wand.status;
  await ctx.db.wands.update({ status: 'suspended', status_reason: reason, suspended_owner_id: wand.owner_id, revision: wand.revision + 1 }, { where: { id: wand.id } });
  Object.assign(wand, { status: 'suspended', status_reason: reason, suspended_owner_id: wand.owner_id, revision: wand.revision + 1 });
  withdrawSchedules(ctx, wand);
  ctx.events.stage('core.wands.wand.suspended', { wand_id: wand.id, name: wand.name, owner_id: wand.owner_id, from, reason });
}

/** Pauses an active wand whose run the allowance could not pay for, and tells its owner. */
export async function pauseForOverrun(ctx: AnyCtx, wand: Wand, reason: string): Promise<void> {
  if (wand.status !== 'active') return;
  await ctx.db.wands.update({ status: 'paused', status_reason: reason, revision: wand.revision + 1 }, { where: { id: wand.id } });
  Object.assign(wand, { status: 'paused', status_reason: reason, revision: wand.revision + 1 });
  withdrawSchedules(ctx, wand);
  ctx.events.stage('core.wands.wand.paused', { wand_id: wand.id, name: wand.name, owner_id: wand.owner_id, reason });
  const owner = await ctx.members.get(wand.owner_id);
  if (owner?.active) {
    ctx.mail.send({
      to: owner.email,
      subject: `Wand paused: ${wand.name}`.slice(0, 200),
      text: `${reason}, so your wand "${wand.name}" was paused. It can be activated again once the allowance allows it (next month, or after an admin raises it in the Wands settings).`,
    });
  }
}
