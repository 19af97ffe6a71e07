import { mountJoinPage, sameOriginRequest, type CallRecorder } from '@wpk/ui/call';
import type { Call } from './api.js';

/** The call's recordings through the app's routes: Record only for a member with `calls.recordings.create`. */
const recordingsOf = (callPath: string): CallRecorder => ({
  allowed: async () => (await sameOriginRequest<{ keys: string[] }>('GET', '/calls/me/permissions')).keys.includes('calls.recordings.create'),
  start: (content_type) => sameOriginRequest('POST', `${callPath}/recordings`, { content_type }),
  complete: async (id, duration_seconds) => void (await sameOriginRequest('PUT', `${callPath}/recordings/${encodeURIComponent(id)}`, { duration_seconds })),
  abort: async (id) => void (await sameOriginRequest('PATCH', `${callPath}/recordings/${encodeURIComponent(id)}`, {})),
});

/**
 * `join.html?call={id}`: the call itself, top-level on the workspace's origin (the camera), with
 * the session cookie: the kit's join page (`@wpk/ui/call`) on GET /calls/{id}, joining through
 * POST and DELETE /calls/{id}/sessions, recording through /calls/{id}/recordings (the member's
 * keys read from GET /calls/me/permissions); an ended or cancelled call is over.
 */
export function mountCallsJoinPage(): void {
  mountJoinPage<Call>({
    tag: 'calls-join-page',
    param: 'call',
    path: '/calls/{id}',
    back: '/app/calls/calls/{id}',
    noun: 'call',
    app: 'Calls',
    title: (call) => call.title,
    video: (call) => call.mode === 'video',
    closed: (call) => (call.status === 'ended' || call.status === 'cancelled' ? 'This call is over.' : null),
    recorder: (callPath) => recordingsOf(callPath),
  });
}
