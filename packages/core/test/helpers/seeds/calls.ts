/**
 * The Calls app's records for the route-table guards: a call of the owner with the member invited,
 * under way (the owner joined), with a recording being uploaded.
 */

/** The kinds the calls app seeds. */
export type CallsSeedKind = 'call' | 'recording';

/** Path parameters of `/calls/...` routes, by name. */
export const CALLS_PARAM_KINDS: Record<string, CallsSeedKind | 'member_mrn'> = { id: 'call', recording_id: 'recording', member_mrn: 'member_mrn' };

/** Body fields naming the app's records (none beyond the member MRNs the guard already maps). */
export const CALLS_FIELD_KINDS: Record<string, CallsSeedKind> = { recording_id: 'recording' };

/** Seeds the calls app in a workspace through its API, as the owner; `memberMrn` is the plain member's MRN. */
export async function seedCalls(call: (method: string, url: string, body?: unknown) => Promise<any>, marker: string, memberMrn: string): Promise<Record<CallsSeedKind, string>> {
  await call('POST', '/applications/calls/installations', {});
  await call('PUT', '/applications/calls/access', { access_policy: 'everyone', allowed_roles: [], redlist: [] });
  const id = (await call('POST', '/calls', { title: `${marker} call`, participant_mrns: [memberMrn] })).id as string;
  await call('POST', `/calls/${id}/sessions`, {});
  const recording = (await call('POST', `/calls/${id}/recordings`, { content_type: 'video/webm' })).id as string;
  return { call: id, recording };
}
