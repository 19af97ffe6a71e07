import { ConflictError, ForbiddenError, isUuid, memberMrn, type SignalingTicket } from '@wpk/sdk';
import type { CallsCheckContext, CallsContext, CallsEvent } from '../kit.js';
import { endCall, index, joinUrl, participantsOf, readCall, updateRow, visibleCall } from './calls.js';
import { callMachine } from './machines.js';

/**
 * The signaling socket's rule for session `calls/calls/{id}`: the member joined the call
 * (`POST /calls/{id}/sessions`) and it is under way. Leaving the call, being removed from it, or
 * its end takes the peer out of the session as well.
 */
export async function mayJoinSession(ctx: CallsCheckContext, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const call = await ctx.db.calls.findOne({ where: { id } });
  if (!call || call.status !== 'active') return false;
  const participant = await ctx.db.participants.findOne({ where: { call_id: id, member_id: ctx.member.id } });
  return participant !== null && participant.joined_at !== null;
}

/**
 * `POST /calls/{id}/sessions`: the caller joins the call. The first to join starts it
 * (`call.started`); each join is `participant.joined` (joining again while in is answered the
 * same, with no event). Answers the call and the signaling ticket.
 */
export async function joinCall(ctx: CallsContext, id: string): Promise<{ call: Awaited<ReturnType<typeof readCall>>; signaling: SignalingTicket; joined: boolean }> {
  const found = await visibleCall(ctx, id, true);
  const participant = found.participant;
  let call = found.call;
  if (!participant) throw new ForbiddenError('You are not a participant of this call: a host must invite you first');
  if (call.status === 'ended' || call.status === 'cancelled') throw new ConflictError(`This call is ${call.status}`);
  const joined = participant.joined_at === null;
  if (joined) {
    const now = new Date();
    await ctx.db.participants.update({ joined_at: now, first_joined_at: participant.first_joined_at ?? now, left_at: null }, { where: { call_id: call.id, member_id: ctx.member.id } });
    if (call.status === 'waiting') {
      const { to, event } = callMachine.move(call.status, 'start');
      call = await updateRow(ctx, call.id, { status: to, started_at: now });
      const participants = await participantsOf(ctx, call.id);
      ctx.events.stage(event as CallsEvent, {
        call_id: call.id,
        join_url: joinUrl(ctx, call.id),
        title: call.title,
        mode: call.mode,
        source_mrn: call.source_mrn,
        participant_mrns: participants.map((row) => memberMrn(row.member_id)),
        creator_mrn: memberMrn(call.creator_id),
      });
      await index(ctx, call);
    }
    ctx.events.stage('core.calls.participant.joined', { call_id: call.id, member_mrn: ctx.member.mrn });
  }
  return { call: await readCall(ctx, call), signaling: ctx.signaling.session('calls', call.id), joined };
}

/** `DELETE /calls/{id}/sessions`: the caller leaves (`participant.left`); the last to leave ends the call (`call.ended`). */
export async function leaveCall(ctx: CallsContext, id: string) {
  const { call, participant } = await visibleCall(ctx, id, true);
  if (!participant || participant.joined_at === null) throw new ConflictError('You are not in this call');
  await ctx.db.participants.update({ joined_at: null, left_at: new Date() }, { where: { call_id: call.id, member_id: ctx.member.id } });
  ctx.events.stage('core.calls.participant.left', { call_id: call.id, member_mrn: ctx.member.mrn });
  ctx.signaling.remove('calls', call.id, [ctx.member.id]);
  const still = (await ctx.db.participants.findAll({ where: { call_id: call.id } })).filter((row) => row.joined_at !== null);
  const after = still.length === 0 ? await endCall(ctx, call) : call;
  return readCall(ctx, after);
}
