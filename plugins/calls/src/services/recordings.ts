import { ConflictError, ForbiddenError, NotFoundError, isUuid } from '@wpk/sdk';
import { resource, type CallsContext, type CallsEvent } from '../kit.js';
import type { Call, Participant, Recording } from '../models/index.js';
import { visibleCall } from './calls.js';
import { recordingMachine } from './machines.js';
import { presentRecording } from './present.js';

/** A call's recordings, oldest first (who may see or handle one is the call's rule). */
const recordings = resource({ model: 'recordings', label: 'Recording', order: [['created_at', 'ASC'], ['id', 'ASC']] });

const EXTENSIONS: Record<string, string> = { 'video/webm': 'webm', 'audio/webm': 'weba', 'video/mp4': 'mp4', 'audio/mp4': 'm4a', 'audio/ogg': 'ogg' };
/** How long an upload link of a recording lives (a long call uploads at its end). */
const UPLOAD_LINK_SECONDS = 6 * 3600;

async function recordingOf(ctx: CallsContext, call: Call, recordingId: string): Promise<Recording> {
  const recording = isUuid(recordingId) ? await ctx.db.recordings.findOne({ where: { id: recordingId, call_id: call.id }, lock: 'update' }) : null;
  if (!recording) throw new NotFoundError(`No recording ${recordingId} of call ${call.id}`);
  return recording;
}

function mayHandle(ctx: CallsContext, participant: Participant | null, recording: Recording, extraKey: string | null): boolean {
  return recording.recorder_id === ctx.member.id || participant?.role === 'host' || ctx.permissions.has('calls.calls.manage') || (extraKey !== null && ctx.permissions.has(extraKey));
}

/** `GET /calls/{id}/recordings`: oldest first; a ready one carries a download link (five minutes). */
export async function listRecordings(ctx: CallsContext, id: string) {
  const { call } = await visibleCall(ctx, id);
  const { rows, count } = await recordings.list(ctx, { where: { call_id: call.id } });
  const data = [];
  for (const recording of rows) {
    const link = recording.status === 'ready' ? await ctx.storage.signedDownloadUrl(recording.storage_key, { filename: `${call.title.trim().slice(0, 200) || 'call'}.${EXTENSIONS[recording.content_type] ?? 'bin'}` }) : null;
    data.push(presentRecording(recording, link));
  }
  return { data, count };
}

/**
 * `POST /calls/{id}/recordings`: a participant of an active call starts a recording. The answer
 * carries a signed upload link (PUT the file to it, then complete the recording).
 */
export async function startRecording(ctx: CallsContext, id: string, contentType: string) {
  const { call, participant } = await visibleCall(ctx, id, true);
  if (!participant) throw new ForbiddenError('Only participants of the call may record it');
  if (call.status !== 'active') throw new ConflictError('A call is recorded while it is under way: nobody has joined it yet, or it is over');
  const recording = await ctx.db.recordings.create({ call_id: call.id, status: recordingMachine.initial, storage_key: 'pending', content_type: contentType, recorder_id: ctx.member.id });
  const key = `recordings/${call.id}/${recording.id}.${EXTENSIONS[contentType]}`;
  await ctx.db.recordings.update({ storage_key: key }, { where: { id: recording.id } });
  const upload = await ctx.storage.signedUploadUrl(key, { contentType, maxBytes: ctx.settings.max_recording_bytes, expiresInSeconds: UPLOAD_LINK_SECONDS });
  return { ...presentRecording({ ...recording, storage_key: key }), upload };
}

/** `PUT /calls/{id}/recordings/{recording_id}` (CompleteRecording): the file is in storage; `recording.ready`. */
export async function completeRecording(ctx: CallsContext, id: string, recordingId: string, durationSeconds: number) {
  const { call, participant } = await visibleCall(ctx, id, true);
  const recording = await recordingOf(ctx, call, recordingId);
  if (!mayHandle(ctx, participant, recording, null)) throw new ForbiddenError("Cannot complete this recording: only its recorder and the call's hosts may");
  const { to, event } = recordingMachine.move(recording.status, 'complete');
  const file = await ctx.storage.head(recording.storage_key);
  if (!file) throw new ConflictError("Upload the recording's file (PUT it to the upload link) before completing it");
  // An empty file is not a recording: the recorder gave no data, and a ready recording would download as nothing.
  if (file.size_bytes === 0) throw new ConflictError("The recording's file is empty (0 bytes): upload what was recorded, or abort the recording");
  const now = new Date();
  await ctx.db.recordings.update({ status: to, duration_seconds: durationSeconds, size_bytes: file.size_bytes, completed_at: now }, { where: { id: recording.id } });
  ctx.events.stage(event as CallsEvent, { call_id: call.id, recording_id: recording.id, storage_key: recording.storage_key, duration_seconds: durationSeconds, size_bytes: file.size_bytes });
  return presentRecording(await recordings.require(ctx, recording.id));
}

/** `PATCH /calls/{id}/recordings/{recording_id}` (AbortRecording): an uploading recording stops; what was uploaded is removed. */
export async function abortRecording(ctx: CallsContext, id: string, recordingId: string) {
  const { call, participant } = await visibleCall(ctx, id, true);
  const recording = await recordingOf(ctx, call, recordingId);
  if (!mayHandle(ctx, participant, recording, null)) throw new ForbiddenError("Cannot abort this recording: only its recorder and the call's hosts may");
  const { to } = recordingMachine.move(recording.status, 'abort');
  await ctx.storage.delete(recording.storage_key);
  await ctx.db.recordings.update({ status: to }, { where: { id: recording.id } });
  return presentRecording(await recordings.require(ctx, recording.id));
}

/** `DELETE /calls/{id}/recordings/{recording_id}`: the row and its file. */
export async function deleteRecording(ctx: CallsContext, id: string, recordingId: string) {
  const { call, participant } = await visibleCall(ctx, id, true);
  const recording = await recordingOf(ctx, call, recordingId);
  if (!mayHandle(ctx, participant, recording, 'calls.recordings.delete')) throw new ForbiddenError("Cannot delete this recording: only its recorder, the call's hosts and members with calls.recordings.delete may");
  const removed = await ctx.storage.delete(recording.storage_key);
  await ctx.db.recordings.destroy({ where: { id: recording.id } });
  return { id: recording.id, call_id: call.id, deleted: true, file_deleted: removed };
}
