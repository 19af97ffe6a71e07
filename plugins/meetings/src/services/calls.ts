import { isUuid, parseMrn } from '@wpk/sdk';
import type { MeetingsBaseContext } from '../kit.js';

function text(value: unknown, most: number): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= most ? value : null;
}

function instant(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The meeting a `source_mrn` names (`mrn:meetings:meeting:{id}`), when it is one of this workspace's. */
async function meetingOf(ctx: MeetingsBaseContext, sourceMrn: unknown): Promise<string | null> {
  const parsed = typeof sourceMrn === 'string' ? parseMrn(sourceMrn) : null;
  if (!parsed || parsed.app !== 'meetings' || parsed.resource !== 'meeting' || !isUuid(parsed.id)) return null;
  return (await ctx.db.meetings.findById(parsed.id)) ? parsed.id.toLowerCase() : null;
}

/**
 * `core.calls.call.created`: a call whose `source_mrn` is one of our meetings becomes that
 * meeting's call (other calls are none of the app's business). Idempotent.
 */
export async function recordCallCreated(ctx: MeetingsBaseContext, payload: Record<string, unknown>): Promise<void> {
  const callId = text(payload.call_id, 100);
  if (!callId) return ctx.log.warn({ action: 'core.calls.call.created' }, 'call.created without a usable call_id: ignored');
  const meetingId = await meetingOf(ctx, payload.source_mrn);
  if (!meetingId) return;
  const scheduledAt = instant(payload.scheduled_at);
  await ctx.lock(`call:${callId}`);
  await ctx.db.meetingCalls.upsert({ call_id: callId, meeting_id: meetingId, ...(scheduledAt ? { scheduled_at: scheduledAt } : {}) }, { conflictFields: ['call_id'], update: scheduledAt ? ['meeting_id', 'scheduled_at'] : ['meeting_id'] });
}

/**
 * `core.calls.call.scheduled`: the call's join URL and time. It names no source, and may arrive
 * before or after `call.created`: kept by call id, so the meeting shows it once both are in.
 */
export async function recordCallScheduled(ctx: MeetingsBaseContext, payload: Record<string, unknown>): Promise<void> {
  const callId = text(payload.call_id, 100);
  if (!callId) return ctx.log.warn({ action: 'core.calls.call.scheduled' }, 'call.scheduled without a usable call_id: ignored');
  const joinUrl = text(payload.join_url, 2000);
  const scheduledAt = instant(payload.scheduled_at);
  await ctx.lock(`call:${callId}`);
  await ctx.db.meetingCalls.upsert({ call_id: callId, join_url: joinUrl, scheduled_at: scheduledAt }, { conflictFields: ['call_id'], update: ['join_url', 'scheduled_at'] });
}
