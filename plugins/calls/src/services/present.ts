import { memberMrn, type SearchDocument } from '@wpk/sdk';
import type { Call, Participant, Recording } from '../models/index.js';

/** A participant as the API answers it. */
export function presentParticipant(participant: Participant) {
  return {
    member_mrn: memberMrn(participant.member_id),
    role: participant.role,
    in_session: participant.joined_at !== null,
    joined_at: participant.joined_at,
    left_at: participant.left_at,
  };
}

/** Whole seconds between two instants (never negative). */
export function secondsBetween(from: Date | null, to: Date | null): number {
  if (!from || !to) return 0;
  return Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
}

/** A call as the API answers it, with its participants (hosts first, then by invitation). */
export function presentCall(call: Call, participants: Participant[], joinUrl: string) {
  return {
    id: call.id,
    type: call.type,
    mode: call.mode,
    title: call.title,
    status: call.status,
    creator_mrn: memberMrn(call.creator_id),
    source_mrn: call.source_mrn,
    scheduled_at: call.scheduled_at,
    started_at: call.started_at,
    ended_at: call.ended_at,
    duration_seconds: call.status === 'ended' ? secondsBetween(call.started_at, call.ended_at) : null,
    participant_count: call.participant_count,
    join_url: joinUrl,
    participants: participants.map(presentParticipant),
    created_at: call.created_at,
    updated_at: call.updated_at,
  };
}

/** A recording as the API answers it; `download` is a signed link for a ready one. */
export function presentRecording(recording: Recording, download: { url: string } | null = null) {
  return {
    id: recording.id,
    call_id: recording.call_id,
    status: recording.status,
    storage_key: recording.storage_key,
    content_type: recording.content_type,
    recorder_mrn: memberMrn(recording.recorder_id),
    duration_seconds: recording.duration_seconds,
    size_bytes: recording.size_bytes,
    completed_at: recording.completed_at,
    download_url: download?.url ?? null,
    created_at: recording.created_at,
    updated_at: recording.updated_at,
  };
}

/** The search document of a call: found by its participants (and by owners and admins). */
export function callDocument(call: Call, participantIds: string[]): SearchDocument {
  return {
    type: 'call',
    id: call.id,
    title: call.title,
    subtitle: call.scheduled_at ? `${call.status}, ${call.scheduled_at.toISOString()}` : call.status,
    url: `/calls/${call.id}`,
    names: [call.title],
    details: [call.source_mrn ?? ''],
    filters: { status: call.status, type: call.type },
    readers: participantIds.slice(0, 1000),
  };
}
