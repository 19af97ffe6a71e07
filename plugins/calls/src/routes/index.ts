import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { CALL_MODES, CALL_STATUSES, PARTICIPANT_ROLES, RECORDING_TYPES } from '../models/index.js';
import { createCallFromRequest, deleteCall, listCalls, readCall, updateCall, visibleCall } from '../services/calls.js';
import { removeParticipant, updateParticipant } from '../services/participants.js';
import { presentParticipant } from '../services/present.js';
import { abortRecording, completeRecording, deleteRecording, listRecordings, startRecording } from '../services/recordings.js';
import { joinCall, leaveCall } from '../services/sessions.js';
import { CALL, DELETED_CALL, DELETED_RECORDING, JOINED, PARTICIPANT, RECORDING, REMOVED_PARTICIPANT, STARTED_RECORDING } from './answers.js';

const mrn = () => Joi.string().max(200);
const title = () => Joi.string().trim().min(1).max(200);
/** A participant named in the path: a member of the workspace, or one who left it (their past calls still name them). */
const participantParams = () => Joi.object({ id: Joi.id().required(), member_mrn: Joi.memberMrn({ former: true }).required() });

/** Every route of the Calls app (the manifest's authorization table lists the same). */
export const routes = [
  route({
    method: 'GET',
    path: '/calls',
    chain: ['calls.calls.read'],
    description: "Lists the caller's calls, newest first (all=true: every call, with calls.calls.manage)",
    validate: { query: Joi.listQuery({ status: Joi.string().valid(...CALL_STATUSES), source_mrn: mrn(), all: Joi.boolean() }) },
    answers: { collection: CALL },
    async handler(request, ctx) {
      const { data, count } = await listCalls(ctx, request.query);
      return ctx.respond.collection(data, count);
    },
  }),
  route({
    method: 'POST',
    path: '/calls',
    chain: ['calls.calls.create'],
    description: 'Starts a call (joined with POST /calls/{id}/sessions) or schedules one (scheduled_at); the caller hosts it',
    validate: {
      payload: Joi.object({
        title: title().required(),
        mode: Joi.string().valid(...CALL_MODES),
        scheduled_at: Joi.instant(),
        participant_mrns: Joi.array().items(Joi.memberMrn()).max(1000),
      }),
    },
    answers: { single: CALL },
    async handler(request, ctx) {
      const call = await createCallFromRequest(ctx, request.payload);
      return ctx.respond.single(await readCall(ctx, call), { self: `/calls/${call.id}`, sessions: `/calls/${call.id}/sessions` });
    },
  }),
  route({
    method: 'GET',
    path: '/calls/{id}',
    chain: ['calls.calls.read'],
    description: 'Reads a call with its participants',
    validate: { params: Joi.idParams('id') },
    answers: { single: CALL },
    async handler(request, ctx) {
      const { call } = await visibleCall(ctx, request.params.id);
      return ctx.respond.single(await readCall(ctx, call), { recordings: `/calls/${call.id}/recordings` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/calls/{id}',
    chain: ['calls.calls.read'],
    description: 'UpdateCall: title, mode, a new time (scheduled_at), more invitees (participant_mrns), or status ended (an active call) or cancelled (a waiting one)',
    validate: {
      params: Joi.idParams('id'),
      payload: Joi.object({
        title: title(),
        mode: Joi.string().valid(...CALL_MODES),
        scheduled_at: Joi.instant(),
        participant_mrns: Joi.array().items(Joi.memberMrn()).max(1000),
        status: Joi.string().valid('ended', 'cancelled'),
      }).or('title', 'mode', 'scheduled_at', 'participant_mrns', 'status'),
    },
    answers: { single: CALL },
    async handler(request, ctx) {
      return ctx.respond.single(await readCall(ctx, await updateCall(ctx, request.params.id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/calls/{id}',
    chain: ['calls.calls.read'],
    description: 'Deletes a call (ended first when under way) and its recordings with their files',
    validate: { params: Joi.idParams('id') },
    answers: { single: DELETED_CALL },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteCall(ctx, request.params.id));
    },
  }),
  route({
    method: 'PATCH',
    path: '/calls/{id}/participants/{member_mrn}',
    chain: ['calls.calls.read'],
    description: "UpdateParticipant: a participant's role (host or participant); a call keeps at least one host",
    validate: { params: participantParams(), payload: Joi.object({ role: Joi.string().valid(...PARTICIPANT_ROLES).required() }) },
    answers: { single: PARTICIPANT },
    async handler(request, ctx) {
      return ctx.respond.single(presentParticipant(await updateParticipant(ctx, request.params.id, request.params.member_mrn, request.payload.role)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/calls/{id}/participants/{member_mrn}',
    chain: ['calls.calls.read'],
    description: 'Removes a participant (out of the session at once)',
    validate: { params: participantParams() },
    answers: { single: REMOVED_PARTICIPANT },
    async handler(request, ctx) {
      return ctx.respond.single(await removeParticipant(ctx, request.params.id, request.params.member_mrn));
    },
  }),
  route({
    method: 'POST',
    path: '/calls/{id}/sessions',
    chain: ['calls.calls.join'],
    description: 'Joins the call; the answer carries the signaling ticket (socket URL, session, STUN/TURN servers)',
    validate: { params: Joi.idParams('id') },
    answers: { single: JOINED },
    async handler(request, ctx) {
      return ctx.respond.single(await joinCall(ctx, request.params.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/calls/{id}/sessions',
    chain: ['calls.calls.join'],
    description: 'Leaves the call; the last to leave ends it',
    validate: { params: Joi.idParams('id') },
    answers: { single: CALL },
    async handler(request, ctx) {
      return ctx.respond.single(await leaveCall(ctx, request.params.id));
    },
  }),
  route({
    method: 'GET',
    path: '/calls/{id}/recordings',
    chain: ['calls.calls.read'],
    description: "Lists the call's recordings, oldest first; ready ones carry a download link",
    validate: { params: Joi.idParams('id'), query: Joi.listQuery() },
    answers: { collection: RECORDING },
    async handler(request, ctx) {
      const { data, count } = await listRecordings(ctx, request.params.id);
      return ctx.respond.collection(data, count);
    },
  }),
  route({
    method: 'POST',
    path: '/calls/{id}/recordings',
    chain: ['calls.recordings.create'],
    description: 'Starts a recording of an active call; the answer carries the signed upload link',
    validate: { params: Joi.idParams('id'), payload: Joi.object({ content_type: Joi.string().valid(...RECORDING_TYPES) }).allow(null) },
    answers: { single: STARTED_RECORDING },
    async handler(request, ctx) {
      return ctx.respond.single(await startRecording(ctx, request.params.id, request.payload?.content_type ?? 'video/webm'));
    },
  }),
  route({
    method: 'PUT',
    path: '/calls/{id}/recordings/{recording_id}',
    chain: ['calls.recordings.create'],
    description: 'CompleteRecording: its file is uploaded; emits core.calls.recording.ready',
    validate: { params: Joi.idParams('id', 'recording_id'), payload: Joi.object({ duration_seconds: Joi.number().integer().min(0).max(604800).required() }) },
    answers: { single: RECORDING },
    async handler(request, ctx) {
      return ctx.respond.single(await completeRecording(ctx, request.params.id, request.params.recording_id, request.payload.duration_seconds));
    },
  }),
  route({
    method: 'PATCH',
    path: '/calls/{id}/recordings/{recording_id}',
    chain: ['calls.recordings.create'],
    description: 'AbortRecording: stops an uploading recording and removes what was uploaded',
    validate: { params: Joi.idParams('id', 'recording_id'), payload: Joi.object({}).allow(null) },
    answers: { single: RECORDING },
    async handler(request, ctx) {
      return ctx.respond.single(await abortRecording(ctx, request.params.id, request.params.recording_id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/calls/{id}/recordings/{recording_id}',
    chain: ['calls.calls.read'],
    description: 'Deletes a recording and its file',
    validate: { params: Joi.idParams('id', 'recording_id') },
    answers: { single: DELETED_RECORDING },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteRecording(ctx, request.params.id, request.params.recording_id));
    },
  }),
];
