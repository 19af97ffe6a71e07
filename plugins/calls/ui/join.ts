import { mountJoinPage } from '@wpk/ui/call';
import type { Call } from './api.js';

/**
 * `join.html?call={id}`: the call itself, top-level on the workspace's origin (the camera), with
 * the session cookie: the kit's join page (`@wpk/ui/call`) on GET /calls/{id}, joining through
 * POST and DELETE /calls/{id}/sessions; an ended or cancelled call is over.
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
  });
}
