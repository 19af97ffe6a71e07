/**
 * The Leaves app's records for the route-table guards: the Workers seed's workers and department
 * delivered to Leaves (as the broker would), a leave type, an allocation, a submitted request and
 * an iCal feed's token, so every leaves route has a record of each workspace to name.
 */

/** What the Leaves app seeds. */
export type LeavesSeedKind = 'leaves_type' | 'leaves_allocation' | 'leaves_request' | 'leaves_feed_token';

/** Path parameters of the app's routes, by first path segment (`/leaves/requests/{request_id}`). */
export const LEAVES_PARAM_KINDS: Record<string, Record<string, LeavesSeedKind>> = {
  leaves: { type_id: 'leaves_type', allocation_id: 'leaves_allocation', request_id: 'leaves_request', token: 'leaves_feed_token' },
};

/** Body fields naming the app's records. */
export const LEAVES_FIELD_KINDS: Record<string, LeavesSeedKind> = { type_id: 'leaves_type' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;
/** Delivers an event to the Leaves app in the workspace, as the broker would. */
type Deliver = (action: string, payload: Record<string, unknown>) => Promise<unknown>;

/** Seeds Leaves after the Workers seed: `worker` and `department` are that seed's ids. */
export async function seedLeaves(call: Call, deliver: Deliver, marker: string, seeded: { worker: string; department: string }): Promise<Record<LeavesSeedKind, string>> {
  await call('POST', '/applications/leaves/installations', {});
  const department = await call('GET', `/workers/departments/${seeded.department}`).catch(() => null);
  await deliver('core.workers.department.created', { department_id: seeded.department, mrn: `mrn:workers:department:${seeded.department}`, name: department?.name ?? `${marker} department`, revision: 1 });
  const workers = (await call('GET', `/workers?department_id=${seeded.department}`)) as Array<Record<string, unknown>>;
  for (const worker of [...workers].sort((a) => (a.manager_id ? 1 : -1))) {
    const fields = Object.fromEntries(['name', 'work_email', 'status', 'revision', 'manager_id', 'department_id', 'member_id'].filter((key) => worker[key] !== null && worker[key] !== undefined).map((key) => [key, worker[key]]));
    await deliver('core.workers.worker.hired', { worker_id: worker.id, mrn: worker.mrn, ...fields });
  }
  const report = workers.find((worker) => worker.manager_id === seeded.worker)!.id as string;
  const type = (await call('POST', '/leaves/types', { name: `${marker} leave`, unit: 'half_day' })).id as string;
  const allocation = (await call('POST', '/leaves/allocations', { worker_id: report, type_id: type, amount: 10 })).id as string;
  const request = (await call('POST', '/leaves/requests', { worker_id: report, type_id: type, from_date: '2099-01-05', to_date: '2099-01-06' })).id as string;
  const feed = (await call('POST', '/leaves/feeds', { department_id: seeded.department })).path as string;
  return { leaves_type: type, leaves_allocation: allocation, leaves_request: request, leaves_feed_token: feed.split('/').pop()! };
}
