/**
 * The Workers app's records for the route-table guards: a department and, in it, a manager with
 * one report, the manager's contract, and an onboarding checklist template (so the manager has a
 * checklist with an item), so every workers route has a record of each workspace to name.
 */

/** What the Workers app seeds. */
export type WorkersSeedKind = 'worker' | 'department' | 'contract' | 'checklist_template' | 'checklist' | 'checklist_item';

/** Path parameters of the app's routes, by first path segment (`/workers/{worker_id}`). */
export const WORKERS_PARAM_KINDS: Record<string, Record<string, WorkersSeedKind>> = {
  workers: { worker_id: 'worker', department_id: 'department', contract_id: 'contract', template_id: 'checklist_template', checklist_id: 'checklist', item_id: 'checklist_item' },
};

/** Body fields naming the app's records. */
export const WORKERS_FIELD_KINDS: Record<string, WorkersSeedKind> = { worker_id: 'worker', department_id: 'department', manager_id: 'worker', head_id: 'worker' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

export async function seedWorkers(call: Call, marker: string): Promise<Record<WorkersSeedKind, string>> {
  await call('POST', '/applications/workers/installations', {});
  const department = (await call('POST', '/workers/departments', { name: `${marker} department` })).id as string;
  const template = (await call('POST', '/workers/checklist-templates', { kind: 'onboarding', name: `${marker} welcome`, items: [{ label: 'Laptop' }] })).id as string;
  const worker = (await call('POST', '/workers', { name: `${marker} manager`, work_email: `manager@${marker.toLowerCase().replace(/[^a-z0-9]/g, '')}.test`, department_id: department })).id as string;
  await call('POST', '/workers', { name: `${marker} report`, work_email: `report@${marker.toLowerCase().replace(/[^a-z0-9]/g, '')}.test`, department_id: department, manager_id: worker });
  await call('PATCH', `/workers/departments/${department}`, { head_id: worker });
  const contract = (await call('POST', `/workers/${worker}/contracts`, { contract_type: 'permanent', starts_on: '2026-01-01', hours_per_week: 40 })).id as string;
  const [checklist] = (await call('GET', `/workers/${worker}/checklists`)) as Array<{ id: string; items: Array<{ id: string }> }>;
  return { worker, department, contract, checklist_template: template, checklist: checklist.id, checklist_item: checklist.items[0].id };
}
