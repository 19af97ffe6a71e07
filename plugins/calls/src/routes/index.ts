import { Joi } from '@wpk/sdk';
import { route, routeFamily } from '../kit.js';
import { CALL_MODES, CALL_STATUSES, PARTICIPANT_ROLES, RECORDING_TYPES } from '../models/index.js';
import { createCallFromRequest, deleteCall, listCalls, readCall, updateCall, visibleCall } from '../services/calls.js';
import { removeParticipant, updateParticipant } from '../services/participants.js';
import { presentParticipant } from '../services/present.js';
import { abortRecording, completeRecording, deleteRecording, listRecordings, startRecording } from '../services/recordings.js';
import { joinCall, leaveCall } from '../services/sessions.js';
import { CALL, DELETED_CALL, DELETED_RECORDING, JOINED, MY_PERMISSIONS, PARTICIPANT, RECORDING, REMOVED_PARTICIPANT, STARTED_RECORDING } from './answers.js';

const mrn = () => Joi.string().max(200);
const title = () => Joi.string().trim().min(1).max(200);
/** A participant named in the path: a member of the workspace, or one who left it (their past calls still name them). */
const participantParams = () => Joi.object({ id: Joi.id().required(), member_mrn: Joi.memberMrn({ former: true }).required() });

const calls = routeFamily('/calls', { record: CALL });
const call = calls.at('/{id}', { params: Joi.idParams('id') });
const participant = call.at('/participants/{member_mrn}', { params: participantParams(), record: PARTICIPANT });
const sessions = call.at('/sessions', { record: JOINED });
const recordings = call.at('/recordings', { record: RECORDING });
const recording = recordings.at('/{recording_id}', { params: Joi.idParams('id', 'recording_id') });

/** Every route of the Calls app (the manifest's authorization table lists the same). */
export const routes = [
  calls.list({
    chain: ['calls.calls.read'],
    description: "Lists the caller's calls, newest first (all=true: every call, with calls.calls.manage)",
    query: Joi.listQuery({ status: Joi.string().valid(...CALL_STATUSES), source_mrn: mrn(), all: Joi.boolean() }),
    async handler(request, ctx) {
      const { data, count } = await listCalls(ctx, request.query);
      return ctx.respond.collection(data, count);
    },
  }),
  calls.post({
    chain: ['calls.calls.create'],
    description: 'Starts a call (joined with POST /calls/{id}/sessions) or schedules one (scheduled_at); the caller hosts it',
    payload: Joi.object({
      title: title().required(),
      mode: Joi.string().valid(...CALL_MODES),
      scheduled_at: Joi.instant(),
      participant_mrns: Joi.array().items(Joi.memberMrn()).max(1000),
      source_mrn: Joi.string().pattern(/^mrn:[a-z0-9][a-z0-9._-]*:[a-z0-9][a-z0-9._-]*:[^:]+$/).max(200).messages({ 'string.pattern.base': '{#label} must be an MRN (mrn:<app>:<resource>:<id>)' }),
    }),
    async handler(request, ctx) {
      const call = await createCallFromRequest(ctx, request.payload);
      return ctx.respond.single(await readCall(ctx, call), { self: `/calls/${call.id}`, sessions: `/calls/${call.id}/sessions` });
    },
  }),
  route({
    method: 'GET',
    path: '/calls/me/permissions',
    chain: ['calls.calls.read'],
    answers: { single: MY_PERMISSIONS },
    description: "The caller's own permission keys in the app (what the front-end offers: Record)",
    handler: async (_request, ctx) => ctx.respond.single({ keys: [...ctx.permissions.keys()].filter((key) => key.startsWith('calls.')).sort() }),
  }),
  call.get({
    chain: ['calls.calls.read'],
    description: 'Reads a call with its participants',
    async handler(request, ctx) {
      const { call } = await visibleCall(ctx, request.params.id);
      return ctx.respond.single(await readCall(ctx, call), { recordings: `/calls/${call.id}/recordings` });
    },
  }),
  call.patch({
    chain: ['calls.calls.read'],
    description: 'UpdateCall: title, mode, a new time (scheduled_at), more invitees (participant_mrns), or status ended (an active call) or cancelled (a waiting one)',
    payload: Joi.object({
      title: title(),
      mode: Joi.string().valid(...CALL_MODES),
      scheduled_at: Joi.instant(),
      participant_mrns: Joi.array().items(Joi.memberMrn()).max(1000),
      status: Joi.string().valid('ended', 'cancelled'),
    }).or('title', 'mode', 'scheduled_at', 'participant_mrns', 'status'),
    run: async (request, ctx) => readCall(ctx, await updateCall(ctx, request.params.id, request.payload)),
  }),
  call.delete({
    chain: ['calls.calls.read'],
    answers: { single: DELETED_CALL },
    description: 'Deletes a call (ended first when under way) and its recordings with their files',
    run: (request, ctx) => deleteCall(ctx, request.params.id),
  }),
  participant.patch({
    chain: ['calls.calls.read'],
    description: "UpdateParticipant: a participant's role (host or participant); a call keeps at least one host",
    payload: Joi.object({ role: Joi.string().valid(...PARTICIPANT_ROLES).required() }),
    async handler(request, ctx) {
      return ctx.respond.single(presentParticipant(await updateParticipant(ctx, request.params.id, request.params.member_mrn, request.payload.role)));
    },
  }),
  participant.delete({
    chain: ['calls.calls.read'],
    answers: { single: REMOVED_PARTICIPANT },
    description: 'Removes a participant (out of the session at once)',
    run: (request, ctx) => removeParticipant(ctx, request.params.id, request.params.member_mrn),
  }),
  sessions.post({
    chain: ['calls.calls.join'],
    description: 'Joins the call; the answer carries the signaling ticket (socket URL, session, STUN/TURN servers)',
    run: (request, ctx) => joinCall(ctx, request.params.id),
  }),
  sessions.delete({
    chain: ['calls.calls.join'],
    answers: { single: CALL },
    description: 'Leaves the call; the last to leave ends it',
    run: (request, ctx) => leaveCall(ctx, request.params.id),
  }),
  recordings.list({
    chain: ['calls.calls.read'],
    description: "Lists the call's recordings, oldest first; ready ones carry a download link",
    query: Joi.listQuery(),
    async handler(request, ctx) {
      const { data, count } = await listRecordings(ctx, request.params.id);
      return ctx.respond.collection(data, count);
    },
  }),
  recordings.post({
    chain: ['calls.recordings.create'],
    answers: { single: STARTED_RECORDING },
    description: 'Starts a recording of an active call; the answer carries the signed upload link',
    payload: Joi.object({ content_type: Joi.string().valid(...RECORDING_TYPES) }).allow(null),
    run: (request, ctx) => startRecording(ctx, request.params.id, request.payload?.content_type ?? 'video/webm'),
  }),
  recording.put({
    chain: ['calls.recordings.create'],
    description: 'CompleteRecording: its file is uploaded; emits core.calls.recording.ready',
    payload: Joi.object({ duration_seconds: Joi.number().integer().min(0).max(604800).required() }),
    run: (request, ctx) => completeRecording(ctx, request.params.id, request.params.recording_id, request.payload.duration_seconds),
  }),
  recording.patch({
    chain: ['calls.recordings.create'],
    description: 'AbortRecording: stops an uploading recording and removes what was uploaded',
    payload: Joi.object({}).allow(null),
    run: (request, ctx) => abortRecording(ctx, request.params.id, request.params.recording_id),
  }),
  recording.delete({
    chain: ['calls.calls.read'],
    answers: { single: DELETED_RECORDING },
    description: 'Deletes a recording and its file',
    run: (request, ctx) => deleteRecording(ctx, request.params.id, request.params.recording_id),
  }),
];
