import { isUuid, memberIdFromMrn, parseInstant } from '@wpk/sdk';
import type { CallsEventContext } from '../kit.js';
import { cancelCall, changeCall, createCall } from './calls.js';
import { dropParticipant } from './participants.js';

/** Member ids of the valid member MRNs in `value` (anything else is skipped). */
function memberIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const ids = value.map((mrn) => (typeof mrn === 'string' ? memberIdFromMrn(mrn) : null)).filter((id): id is string => id !== null && isUuid(id));
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim().length > 0 ? value.trim().slice(0, 200) : fallback);

/**
 * `core.chat.call.requested`: a participant of a chat asked its participants to a call. It makes
 * an instant call (the requester hosts it; source_mrn is the chat), once per event.
 */
export async function callFromChatRequest(ctx: CallsEventContext, payload: Record<string, unknown>, eventId: string): Promise<void> {
  const requester = typeof payload.requested_by === 'string' ? memberIdFromMrn(payload.requested_by) : null;
  if (!requester || !isUuid(payload.chat_id) || typeof payload.chat_id !== 'string') return ctx.log.warn({ action: 'core.chat.call.requested' }, 'a call request without a usable chat or requester: ignored');
  await createCall(ctx, {
    title: text(payload.chat_name, 'Chat call'),
    mode: payload.mode === 'audio' ? 'audio' : 'video',
    scheduledAt: null,
    creatorId: requester.toLowerCase(),
    participantIds: memberIds(payload.participant_mrns),
    sourceMrn: `mrn:chat:chat:${payload.chat_id}`,
    sourceKey: `chat-request:${eventId}`,
  });
}

/**
 * `core.meetings.meeting.scheduled` and `.updated`: the meeting's call, scheduled at its start,
 * its organizer hosting and its attendees invited. A new time moves the call (and its reminder);
 * attendees no longer listed are uninvited (unless in the call). An update of a meeting the app
 * never heard of makes its call.
 */
export async function callFromMeeting(ctx: CallsEventContext, payload: Record<string, unknown>): Promise<void> {
  const meetingId = typeof payload.meeting_id === 'string' ? payload.meeting_id.slice(0, 150) : '';
  const organizer = typeof payload.organizer_mrn === 'string' ? memberIdFromMrn(payload.organizer_mrn) : null;
  const startsAt = typeof payload.starts_at === 'string' ? parseInstant(payload.starts_at) : null;
  if (!meetingId || !organizer || !isUuid(organizer) || !startsAt) return ctx.log.warn({ meeting_id: meetingId }, 'a meeting event without a usable id, organizer or start: ignored');
  const sourceKey = `meeting:${meetingId}`;
  const attendees = memberIds(payload.attendee_mrns);
  const sourceMrn = typeof payload.meeting_mrn === 'string' ? payload.meeting_mrn.slice(0, 200) : `mrn:meetings:meeting:${meetingId}`;
  await ctx.lock(`source:${sourceKey}`);
  const existing = await ctx.db.calls.findOne({ where: { source_key: sourceKey } });
  if (!existing) {
    await createCall(ctx, { title: text(payload.title, 'Meeting'), mode: 'video', scheduledAt: startsAt, creatorId: organizer.toLowerCase(), participantIds: attendees, sourceMrn, sourceKey });
    return;
  }
  if (existing.status !== 'waiting') return;
  const current = await ctx.db.participants.findAll({ where: { call_id: existing.id } });
  const wanted = new Set([organizer.toLowerCase(), ...attendees]);
  await changeCall(ctx, existing, {
    title: text(payload.title, existing.title),
    scheduledAt: startsAt,
    addIds: [...wanted],
    removeIds: current.map((row) => row.member_id).filter((id) => !wanted.has(id)),
  });
}

/** `core.meetings.meeting.cancelled`: the meeting's call is cancelled (its reminder withdrawn) unless it is under way or over. */
export async function cancelMeetingCall(ctx: CallsEventContext, payload: Record<string, unknown>): Promise<void> {
  const meetingId = typeof payload.meeting_id === 'string' ? payload.meeting_id.slice(0, 150) : '';
  if (!meetingId) return;
  await ctx.lock(`source:meeting:${meetingId}`);
  const call = await ctx.db.calls.findOne({ where: { source_key: `meeting:${meetingId}` }, lock: 'update' });
  if (call?.status === 'waiting') await cancelCall(ctx, call);
}

/** `core.account.member.removed`: the member leaves every call not over yet (and its session). */
export async function memberRemoved(ctx: CallsEventContext, memberId: string): Promise<void> {
  const rows = await ctx.db.participants.findAll({ where: { member_id: memberId }, order: [['call_id', 'ASC']] });
  for (const row of rows) {
    const call = await ctx.db.calls.findOne({ where: { id: row.call_id }, lock: 'update' });
    if (!call || call.status === 'ended' || call.status === 'cancelled') continue;
    await dropParticipant(ctx, call, row);
  }
}
