import { randomUUID } from 'node:crypto';
import { ConflictError, ForbiddenError, InvalidError, isUuid, NotFoundError } from '@wpk/sdk';
import { resource, type MeetingsContext, type MeetingsEvent } from '../kit.js';
import type { Meeting, Presignation, Purpose } from '../models/index.js';
import { presignationMachine } from './machines.js';
import { assertScheduled, requireMeeting, requireVisibleMeeting, type Standing } from './meetings.js';
import { meetingMrnOf, presentFile, presentPresignation } from './present.js';

/** A meeting's upload grants, newest first (who may act on one is `requireGrant`'s rule). */
const presignations = resource({ model: 'presignations', label: 'Presignation', order: [['created_at', 'DESC'], ['id', 'ASC']] });

/** Organizers, member attendees and managers of a meeting may hand out grants for it. */
function assertTakesPart(standing: Standing): void {
  if (!standing.organizer && !standing.attendee && !standing.manager) throw new ForbiddenError('Only the meeting\'s organizer and attendees may do this');
}

export interface CreatePresignationInput {
  purpose: Purpose;
  filename: string;
  content_type: string;
  size_bytes: number;
  expires_in_seconds?: number;
}

/**
 * Hands out an upload grant: a signed link (PUT) to one key of its own, accepting exactly the
 * declared media type and at most `size_bytes`, until it expires. The link is in this answer
 * only (it is never stored); `expires_at` is the link's own.
 */
export async function createPresignation(ctx: MeetingsContext, meetingId: string, input: CreatePresignationInput) {
  const { meeting, standing } = await requireVisibleMeeting(ctx, meetingId, true);
  assertTakesPart(standing);
  assertScheduled(meeting);
  const seconds = input.expires_in_seconds ?? ctx.settings.default_grant_seconds;
  if (seconds > ctx.settings.max_grant_seconds) throw new InvalidError(`expires_in_seconds: at most ${ctx.settings.max_grant_seconds} (the workspace's setting)`);
  if (input.size_bytes > ctx.settings.max_upload_bytes) throw new InvalidError(`size_bytes: at most ${ctx.settings.max_upload_bytes} (the workspace's setting)`);
  const id = randomUUID();
  const key = `grants/${id}/upload`;
  const link = await ctx.storage.signedUploadUrl(key, { expiresInSeconds: seconds, contentType: input.content_type, maxBytes: input.size_bytes });
  const grant = await ctx.db.presignations.create({
    id,
    meeting_id: meeting.id,
    purpose: input.purpose,
    filename: input.filename,
    content_type: input.content_type,
    max_bytes: input.size_bytes,
    storage_key: key,
    expires_at: new Date(link.expires_at),
    status: presignationMachine.initial,
    created_by: ctx.member.id,
  });
  ctx.events.stage('core.meetings.presignation.created', { presignation_id: grant.id, meeting_id: meeting.id, purpose: grant.purpose, max_bytes: input.size_bytes, expires_at: grant.expires_at.toISOString(), created_by_mrn: ctx.member.mrn });
  return { ...presentPresignation(grant), upload: { url: link.url, method: 'PUT' as const, headers: { 'content-type': input.content_type } } };
}

/** A meeting's grants, newest first (without their links). */
export async function listPresignations(ctx: MeetingsContext, meetingId: string) {
  const { meeting, standing } = await requireVisibleMeeting(ctx, meetingId);
  assertTakesPart(standing);
  const { rows, count } = await presignations.list(ctx, { where: { meeting_id: meeting.id } });
  return { rows: rows.map(presentPresignation), count };
}

/** A grant the caller may act on: its creator, the meeting's organizer, or a manager; others' are a 404 (the meeting's privacy holds). */
async function requireGrant(ctx: MeetingsContext, grantId: string): Promise<{ grant: Presignation; meeting: Meeting }> {
  const grant = await presignations.require(ctx, grantId, { lock: 'update' });
  const meeting = await requireMeeting(ctx, grant.meeting_id);
  const manager = ctx.permissions.has('meetings.meetings.manage');
  if (grant.created_by !== ctx.member.id && meeting.organizer_id !== ctx.member.id && !manager) {
    const attends = await ctx.db.attendees.findOne({ where: { meeting_id: meeting.id, member_id: ctx.member.id } });
    if (!attends) throw new NotFoundError(`Presignation ${grantId} not found`);
    throw new ForbiddenError("Only the grant's creator or the meeting's organizer may do this");
  }
  return { grant, meeting };
}

/** Revokes an open grant: whatever arrived through it is deleted, and a completion is refused from now on. */
export async function revokePresignation(ctx: MeetingsContext, grantId: string) {
  const { grant } = await requireGrant(ctx, grantId);
  const { to, event } = presignationMachine.move(grant.status, 'revoke');
  await ctx.db.presignations.update({ status: to, revoked_at: new Date(), revoked_by: ctx.member.id, updated_at: new Date() }, { where: { id: grant.id } });
  await ctx.storage.delete(grant.storage_key);
  ctx.events.stage(event as MeetingsEvent, { presignation_id: grant.id, meeting_id: grant.meeting_id, revoked_by_mrn: ctx.member.mrn });
  return presentPresignation(await presignations.require(ctx, grant.id));
}

/**
 * Completes a grant (single use): the upload must be there and must have arrived before the
 * grant expired; it is moved to the meeting's own key (so the link, valid until it expires,
 * can no longer change it) and filed with the meeting.
 */
export async function completePresignation(ctx: MeetingsContext, grantId: string) {
  const { grant, meeting } = await requireGrant(ctx, grantId);
  const { to, event } = presignationMachine.move(grant.status, 'complete');
  const stored = await ctx.storage.get(grant.storage_key);
  if (!stored) throw new ConflictError(`Nothing was uploaded through presignation ${grant.id} yet`);
  if (new Date(stored.updated_at).getTime() > grant.expires_at.getTime()) {
    stored.body.destroy();
    throw new ConflictError(`Presignation ${grant.id} expired before the upload arrived`);
  }
  const fileId = randomUUID();
  const key = `meetings/${meeting.id}/files/${fileId}`;
  const kept = await ctx.storage.put(key, stored.body, { contentType: stored.content_type });
  await ctx.storage.delete(grant.storage_key);
  const file = await ctx.db.meetingFiles.create({
    id: fileId,
    meeting_id: meeting.id,
    presignation_id: grant.id,
    purpose: grant.purpose,
    filename: grant.filename,
    content_type: kept.content_type,
    size_bytes: kept.size_bytes,
    sha256: kept.sha256,
    storage_key: key,
    uploaded_by: grant.created_by,
  });
  await ctx.db.presignations.update({ status: to, used_at: new Date(), file_id: file.id, updated_at: new Date() }, { where: { id: grant.id } });
  ctx.events.stage(event as MeetingsEvent, {
    file_id: file.id, meeting_id: meeting.id, meeting_mrn: meetingMrnOf(meeting.id), presignation_id: grant.id, purpose: grant.purpose, filename: grant.filename,
    content_type: kept.content_type, size_bytes: kept.size_bytes, storage_key: key, uploaded_by_mrn: ctx.member.mrn,
  });
  return presentFile(file);
}

/** One of the meeting's files, with a download link valid five minutes. */
export async function downloadFile(ctx: MeetingsContext, meetingId: string, fileId: string) {
  const { meeting } = await requireVisibleMeeting(ctx, meetingId);
  const file = isUuid(fileId) ? await ctx.db.meetingFiles.findOne({ where: { meeting_id: meeting.id, id: fileId } }) : null;
  if (!file) throw new NotFoundError(`File ${fileId} not found in this meeting`);
  const link = await ctx.storage.signedDownloadUrl(file.storage_key, { filename: file.filename });
  return { ...presentFile(file), download: { url: link.url, method: 'GET' as const, expires_at: link.expires_at } };
}
