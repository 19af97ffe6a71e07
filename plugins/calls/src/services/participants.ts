import { ConflictError, ForbiddenError, NotFoundError, memberIdFromMrn, memberMrn } from '@wpk/sdk';
import type { CallsBaseContext, CallsContext } from '../kit.js';
import type { Call, Participant, ParticipantRole } from '../models/index.js';
import { assertHost, endCall, index, visibleCall } from './calls.js';

/** The participant a member MRN names (the route checked it names a member, present or former, of the workspace); 404 when not in the call. */
async function participantOf(ctx: CallsBaseContext, call: Call, mrn: string): Promise<Participant> {
  const memberId = memberIdFromMrn(mrn)!.toLowerCase();
  const participant = await ctx.db.participants.findOne({ where: { call_id: call.id, member_id: memberId } });
  if (!participant) throw new NotFoundError(`No participant ${mrn} in call ${call.id}`);
  return participant;
}

async function otherHosts(ctx: CallsBaseContext, callId: string, memberId: string): Promise<number> {
  const hosts = await ctx.db.participants.findAll({ where: { call_id: callId, role: 'host' } });
  return hosts.filter((host) => host.member_id !== memberId).length;
}

/** `PATCH /calls/{id}/participants/{member_mrn}` (UpdateParticipant): a host or `calls.calls.manage` changes a role; the last host stays one. */
export async function updateParticipant(ctx: CallsContext, id: string, mrn: string, role: ParticipantRole): Promise<Participant> {
  const { call, participant: caller } = await visibleCall(ctx, id, true);
  assertHost(ctx, caller, "Cannot change this call's participants: only its hosts may");
  const target = await participantOf(ctx, call, mrn);
  if (target.role === role) return target;
  if (role !== 'host' && (await otherHosts(ctx, call.id, target.member_id)) === 0) throw new ConflictError('A call keeps at least one host: make another participant host first');
  await ctx.db.participants.update({ role }, { where: { call_id: call.id, member_id: target.member_id } });
  return (await ctx.db.participants.findOne({ where: { call_id: call.id, member_id: target.member_id } }))!;
}

/**
 * Takes a member out of a call (they are out of its session at once: `participant.left`, and the
 * signaling session drops their peers). Used by the route and by the member-removed subscription.
 * An active call nobody is left in ends.
 */
export async function dropParticipant(ctx: CallsBaseContext, call: Call, target: Participant): Promise<void> {
  await ctx.db.participants.destroy({ where: { call_id: call.id, member_id: target.member_id } });
  if (target.joined_at !== null) {
    ctx.events.stage('core.calls.participant.left', { call_id: call.id, member_mrn: memberMrn(target.member_id) });
    ctx.signaling.remove('calls', call.id, [target.member_id]);
    const still = (await ctx.db.participants.findAll({ where: { call_id: call.id } })).filter((row) => row.joined_at !== null);
    if (call.status === 'active' && still.length === 0) {
      await endCall(ctx, call);
      return;
    }
  }
  await index(ctx, call);
}

/** `DELETE /calls/{id}/participants/{member_mrn}`: a host, `calls.calls.manage`, or the participant themself. */
export async function removeParticipant(ctx: CallsContext, id: string, mrn: string) {
  const { call, participant: caller } = await visibleCall(ctx, id, true);
  const target = await participantOf(ctx, call, mrn);
  if (target.member_id !== ctx.member.id && caller?.role !== 'host' && !ctx.permissions.has('calls.calls.manage')) throw new ForbiddenError("Cannot remove this participant: only the call's hosts may remove others");
  if (call.status === 'ended' || call.status === 'cancelled') throw new ConflictError(`This call is ${call.status}: its participants can no longer change`);
  if (target.role === 'host' && (await otherHosts(ctx, call.id, target.member_id)) === 0 && (await ctx.db.participants.count({ where: { call_id: call.id } })) > 1) {
    throw new ConflictError('A call keeps at least one host: make another participant host first');
  }
  await dropParticipant(ctx, call, target);
  return { call_id: call.id, member_mrn: memberMrn(target.member_id), removed: true };
}
