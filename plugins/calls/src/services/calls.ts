import { ConflictError, ForbiddenError, InvalidError, NotFoundError, memberIdFromMrn, memberMrn, parseInstant } from '@wpk/sdk';
import { resource, type CallsBaseContext, type CallsContext, type CallsEvent } from '../kit.js';
import type { Call, CallMode, Participant } from '../models/index.js';
import { callMachine } from './machines.js';
import { callDocument, presentCall, secondsBetween } from './present.js';

/** The workspace's calls, newest first: lookups, pages and the keyset walk of a re-index (who may see one is `visibleCall`'s rule). */
export const calls = resource({ model: 'calls', label: 'Call', order: [['created_at', 'DESC'], ['id', 'ASC']] });

/** The member ids of MRNs a route checked against the member directory. */
const memberIds = (mrns: string[] | undefined) => (mrns ?? []).map((mrn) => memberIdFromMrn(mrn)!.toLowerCase());

/** The dedupe key of a call's reminder: one waiting reminder per call, withdrawn and staged again as the call changes. */
export const reminderKey = (callId: string) => `reminder:${callId}`;

/** The link a participant opens to join: the call's page on the workspace's host. */
export function joinUrl(ctx: CallsBaseContext, callId: string): string {
  const url = new URL(ctx.signaling.session('calls', callId).url);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  url.pathname = `/calls/${callId}`;
  url.search = '';
  return url.toString();
}

/** A call's participants, hosts first, then in the order they were invited. */
export async function participantsOf(ctx: CallsBaseContext, callId: string): Promise<Participant[]> {
  const rows = await ctx.db.participants.findAll({ where: { call_id: callId }, order: [['created_at', 'ASC'], ['member_id', 'ASC']] });
  return [...rows.filter((row) => row.role === 'host'), ...rows.filter((row) => row.role !== 'host')];
}

/** The call as answered, read again with its participants. */
export async function readCall(ctx: CallsBaseContext, call: Call) {
  return presentCall(call, await participantsOf(ctx, call.id), joinUrl(ctx, call.id));
}

/** The call by id, or null (an id that is no UUID names nothing). */
export function findCall(ctx: CallsBaseContext, id: string, lock = false): Promise<Call | null> {
  return calls.find(ctx, id, lock ? { lock: 'update' } : {});
}

/**
 * A call the caller may see: one they take part in, or any with `calls.calls.manage` (owners and
 * admins hold it). Others get 404, as for a call that does not exist.
 */
export async function visibleCall(ctx: CallsContext, id: string, lock = false): Promise<{ call: Call; participant: Participant | null }> {
  const call = await findCall(ctx, id, lock);
  const participant = call ? await ctx.db.participants.findOne({ where: { call_id: call.id, member_id: ctx.member.id } }) : null;
  if (!call || (!participant && !ctx.permissions.has('calls.calls.manage'))) throw new NotFoundError(`No call ${id}`);
  return { call, participant };
}

/** Refuses a caller who is neither a host of the call nor holds `calls.calls.manage`. */
export function assertHost(ctx: CallsContext, participant: Participant | null, message: string): void {
  if (participant?.role === 'host' || ctx.permissions.has('calls.calls.manage')) return;
  throw new ForbiddenError(message);
}

/** Writes `values` to the call and reads it back. */
export async function updateRow(ctx: CallsBaseContext, id: string, values: Partial<Call>): Promise<Call> {
  await ctx.db.calls.update(values, { where: { id } });
  return (await ctx.db.calls.findOne({ where: { id } }))!;
}

/** Updates the search document of the call (its readers are its participants). */
export async function index(ctx: CallsBaseContext, call: Call): Promise<void> {
  const participants = await ctx.db.participants.findAll({ where: { call_id: call.id }, order: [['created_at', 'ASC'], ['member_id', 'ASC']] });
  ctx.search.upsert(callDocument(call, participants.map((row) => row.member_id)));
}

/**
 * Stages the call's reminder again: the waiting one (if any) is withdrawn, and a waiting scheduled
 * call gets a new one for `reminder_minutes` before its time (at once when that instant has
 * passed, none when the call's time has passed or reminders are off). Withdraw-then-stage is one
 * transaction, so the reminder is never early and never twice.
 */
export async function restageReminder(ctx: CallsBaseContext, call: Call): Promise<void> {
  ctx.events.withdraw('core.calls.call.reminder', reminderKey(call.id));
  const minutes = ctx.settings.reminder_minutes;
  if (call.status !== 'waiting' || !call.scheduled_at || minutes <= 0) return;
  const now = Date.now();
  if (call.scheduled_at.getTime() <= now) return;
  const deliverAt = new Date(Math.max(now, call.scheduled_at.getTime() - minutes * 60_000));
  const participants = await participantsOf(ctx, call.id);
  ctx.events.stage(
    'core.calls.call.reminder',
    { call_id: call.id, title: call.title, join_url: joinUrl(ctx, call.id), participant_mrns: participants.map((row) => memberMrn(row.member_id)), scheduled_at: call.scheduled_at.toISOString() },
    {},
    { deliverAt, dedupeKey: reminderKey(call.id) },
  );
}

async function emitScheduled(ctx: CallsBaseContext, call: Call): Promise<void> {
  const participants = await participantsOf(ctx, call.id);
  ctx.events.stage('core.calls.call.scheduled', {
    call_id: call.id,
    title: call.title,
    scheduled_at: call.scheduled_at!.toISOString(),
    participant_mrns: participants.map((row) => memberMrn(row.member_id)),
    join_url: joinUrl(ctx, call.id),
  });
}

/** What makes a call, from a route or another app's event. */
export interface NewCall {
  title: string;
  mode: CallMode;
  scheduledAt: Date | null;
  creatorId: string;
  /** Invitees besides the creator (who is the call's host). */
  participantIds: string[];
  /** More hosts (a meeting's organizer when the creator is someone else). */
  hostIds?: string[];
  sourceMrn?: string | null;
  /** Makes the call once per key (`chat-request:{event id}`, `meeting:{id}`). */
  sourceKey?: string | null;
}

/**
 * Creates a call with its participants (the creator as host): `call.created`, and for a
 * scheduled call `call.scheduled` and its reminder. With a source key, a second request for the
 * same key answers the existing call (`created: false`) and emits nothing.
 */
export async function createCall(ctx: CallsBaseContext, input: NewCall): Promise<{ call: Call; created: boolean }> {
  if (input.sourceKey) {
    await ctx.lock(`source:${input.sourceKey}`);
    const existing = await ctx.db.calls.findOne({ where: { source_key: input.sourceKey } });
    if (existing) return { call: existing, created: false };
  }
  const hosts = [...new Set([input.creatorId, ...(input.hostIds ?? [])])];
  const invitees = [...new Set(input.participantIds)].filter((id) => !hosts.includes(id));
  const everyone = [...hosts, ...invitees];
  if (everyone.length > ctx.settings.max_participants) throw new InvalidError(`participant_mrns: a call takes at most ${ctx.settings.max_participants} participants (the settings' max_participants), creator included`);
  const call = await ctx.db.calls.create({
    type: input.scheduledAt ? 'scheduled' : 'instant',
    mode: input.mode,
    title: input.title,
    status: callMachine.initial,
    creator_id: input.creatorId,
    source_mrn: input.sourceMrn ?? null,
    source_key: input.sourceKey ?? null,
    scheduled_at: input.scheduledAt,
  });
  for (const memberId of everyone) await ctx.db.participants.create({ call_id: call.id, member_id: memberId, role: hosts.includes(memberId) ? 'host' : 'participant' });
  ctx.events.stage('core.calls.call.created', {
    call_id: call.id,
    type: call.type,
    mode: call.mode,
    title: call.title,
    creator_mrn: memberMrn(call.creator_id),
    source_mrn: call.source_mrn,
    scheduled_at: call.scheduled_at?.toISOString() ?? null,
  });
  if (call.scheduled_at) {
    await emitScheduled(ctx, call);
    await restageReminder(ctx, call);
  }
  await index(ctx, call);
  return { call, created: true };
}

/** `POST /calls`. */
export async function createCallFromRequest(ctx: CallsContext, payload: { title: string; mode?: CallMode; scheduled_at?: string; participant_mrns?: string[]; source_mrn?: string }) {
  const ids = memberIds(payload.participant_mrns);
  const scheduledAt = payload.scheduled_at ? parseInstant(payload.scheduled_at)! : null;
  if (scheduledAt && scheduledAt.getTime() <= Date.now()) throw new InvalidError('scheduled_at must be in the future (leave it out to start the call now)');
  const { call } = await createCall(ctx, { title: payload.title, mode: payload.mode ?? 'video', scheduledAt, creatorId: ctx.member.id, participantIds: ids, sourceMrn: payload.source_mrn ?? null });
  return call;
}

/** `GET /calls`: the caller's calls (every call with `calls.calls.manage` and `all=true`), newest first. */
export async function listCalls(ctx: CallsContext, query: { status?: string; source_mrn?: string; all?: boolean }) {
  const where: Record<string, unknown> = {};
  if (query.status) where.status = query.status;
  if (query.source_mrn) where.source_mrn = query.source_mrn;
  if (!(query.all && ctx.permissions.has('calls.calls.manage'))) {
    const mine = await ctx.db.participants.findAll({ where: { member_id: ctx.member.id } });
    where.id = mine.map((row) => row.call_id);
  }
  const { rows, count } = await calls.list(ctx, { where });
  return { data: await Promise.all(rows.map((call) => readCall(ctx, call))), count };
}

/**
 * Ends an active call: everyone still in its session leaves (`participant.left` each), then
 * `call.ended` with its length and how many members took part; the signaling session closes.
 */
export async function endCall(ctx: CallsBaseContext, call: Call): Promise<Call> {
  const { to, event } = callMachine.move(call.status, 'end');
  const now = new Date();
  const inSession = await ctx.db.participants.findAll({ where: { call_id: call.id }, order: [['joined_at', 'ASC'], ['member_id', 'ASC']] });
  for (const participant of inSession.filter((row) => row.joined_at !== null)) {
    await ctx.db.participants.update({ joined_at: null, left_at: now }, { where: { call_id: call.id, member_id: participant.member_id } });
    ctx.events.stage('core.calls.participant.left', { call_id: call.id, member_mrn: memberMrn(participant.member_id) });
  }
  const participantCount = inSession.filter((row) => row.first_joined_at !== null).length;
  const ended = await updateRow(ctx, call.id, { status: to, ended_at: now, participant_count: participantCount });
  ctx.events.stage(event as CallsEvent, { call_id: call.id, source_mrn: call.source_mrn, duration_seconds: secondsBetween(call.started_at, now), participant_count: participantCount });
  ctx.events.withdraw('core.calls.call.reminder', reminderKey(call.id));
  ctx.signaling.end('calls', call.id);
  await index(ctx, ended);
  return ended;
}

/** Cancels a call nobody joined yet: its reminder is withdrawn, its session closed. */
export async function cancelCall(ctx: CallsBaseContext, call: Call): Promise<Call> {
  const { to } = callMachine.move(call.status, 'cancel');
  const cancelled = await updateRow(ctx, call.id, { status: to });
  ctx.events.withdraw('core.calls.call.reminder', reminderKey(call.id));
  ctx.signaling.end('calls', call.id);
  await index(ctx, cancelled);
  return cancelled;
}

/** What UpdateCall may change. */
export interface CallChanges {
  title?: string;
  mode?: CallMode;
  scheduled_at?: string;
  participant_mrns?: string[];
  status?: 'ended' | 'cancelled';
}

/**
 * Applies changes to a call (shared by UpdateCall and the meetings subscription): a new time moves
 * a waiting call (`call.scheduled` again, its reminder replaced); new invitees join its
 * participants; `status` ends an active call or cancels a waiting one.
 */
export async function changeCall(ctx: CallsBaseContext, call: Call, changes: { title?: string; mode?: CallMode; scheduledAt?: Date; addIds?: string[]; removeIds?: string[]; status?: 'ended' | 'cancelled' }): Promise<Call> {
  // Asking for the state the call is in already changes nothing (PATCH sets a state; no event).
  if (changes.status !== undefined && changes.status === call.status) return call;
  // A status is a move of the call's state machine: ending needs an active call, cancelling a waiting one.
  if (changes.status === 'ended') return endCall(ctx, call);
  if (changes.status === 'cancelled') return cancelCall(ctx, call);
  if (call.status === 'ended' || call.status === 'cancelled') throw new ConflictError(`This call is ${call.status}: it can no longer change`);
  if (changes.scheduledAt && call.status !== 'waiting') throw new ConflictError('This call is under way: its time can no longer change');
  const values: Partial<Call> = {};
  if (changes.title !== undefined && changes.title !== call.title) values.title = changes.title;
  if (changes.mode !== undefined && changes.mode !== call.mode) values.mode = changes.mode;
  const moved = changes.scheduledAt !== undefined && changes.scheduledAt.getTime() !== call.scheduled_at?.getTime();
  if (moved) {
    values.scheduled_at = changes.scheduledAt!;
    values.type = 'scheduled';
  }
  let invited = false;
  const existing = await ctx.db.participants.findAll({ where: { call_id: call.id } });
  const known = new Set(existing.map((row) => row.member_id));
  const adding = [...new Set(changes.addIds ?? [])].filter((id) => !known.has(id));
  const removing = [...new Set(changes.removeIds ?? [])].filter((id) => known.has(id));
  if (existing.length + adding.length - removing.length > ctx.settings.max_participants) throw new InvalidError(`participant_mrns: a call takes at most ${ctx.settings.max_participants} participants (the settings' max_participants)`);
  for (const memberId of adding) {
    await ctx.db.participants.create({ call_id: call.id, member_id: memberId, role: 'participant' });
    invited = true;
  }
  for (const memberId of removing) {
    const row = existing.find((candidate) => candidate.member_id === memberId)!;
    if (row.joined_at !== null || row.role === 'host') continue;
    await ctx.db.participants.destroy({ where: { call_id: call.id, member_id: memberId } });
    invited = true;
  }
  let updated = call;
  if (Object.keys(values).length > 0) updated = await updateRow(ctx, call.id, values);
  if (moved) await emitScheduled(ctx, updated);
  if (updated.status === 'waiting' && updated.scheduled_at && (moved || invited || values.title !== undefined)) await restageReminder(ctx, updated);
  if (Object.keys(values).length > 0 || invited) await index(ctx, updated);
  return updated;
}

/** `PATCH /calls/{id}` (UpdateCall): a host of the call, or `calls.calls.manage`. */
export async function updateCall(ctx: CallsContext, id: string, payload: CallChanges): Promise<Call> {
  const { call, participant } = await visibleCall(ctx, id, true);
  assertHost(ctx, participant, 'Cannot update this call: only its hosts may');
  const addIds = memberIds(payload.participant_mrns);
  let scheduledAt: Date | undefined;
  if (payload.scheduled_at !== undefined) {
    scheduledAt = parseInstant(payload.scheduled_at)!;
    if (scheduledAt.getTime() <= Date.now()) throw new InvalidError('scheduled_at must be in the future');
  }
  return changeCall(ctx, call, { title: payload.title, mode: payload.mode, scheduledAt, addIds, status: payload.status });
}

/** `DELETE /calls/{id}`: ends it if under way, withdraws its reminder, removes its recordings' files and its rows. */
export async function deleteCall(ctx: CallsContext, id: string) {
  const { call, participant } = await visibleCall(ctx, id, true);
  assertHost(ctx, participant, 'Cannot delete this call: only its hosts may');
  if (call.status === 'active') await endCall(ctx, call);
  ctx.events.withdraw('core.calls.call.reminder', reminderKey(call.id));
  ctx.signaling.end('calls', call.id);
  const recordings = await ctx.db.recordings.findAll({ where: { call_id: call.id } });
  for (const recording of recordings) await ctx.storage.delete(recording.storage_key);
  await ctx.db.recordings.destroy({ where: { call_id: call.id } });
  await ctx.db.participants.destroy({ where: { call_id: call.id } });
  await ctx.db.calls.destroy({ where: { id: call.id } });
  ctx.search.remove('call', call.id);
  return { id: call.id, deleted: true, recordings_deleted: recordings.length };
}
