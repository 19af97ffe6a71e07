import type { WorkersBaseContext } from '../kit.js';
import { contractFields, contracts } from './contracts.js';
import { departments } from './departments.js';
import { departmentFields, workerFields } from './present.js';
import { workers } from './workers.js';

/**
 * Announces every department, worker and contract (`*.announced`, each at its current revision)
 * after an app is installed: a copy kept from the app's events (Leaves, Growth, Feeds) missed
 * every record made before its app was installed, and an announcement is what a copy applies
 * unless it already holds that revision. Nothing for the app's own installation (decision 0278).
 */
export async function announceRecords(ctx: WorkersBaseContext, appSlug: string): Promise<void> {
  if (appSlug === 'workers') return;
  for await (const department of departments.walk(ctx)) ctx.events.stage('core.workers.department.announced', { ...departmentFields(department), for_app: appSlug });
  for await (const worker of workers.walk(ctx)) ctx.events.stage('core.workers.worker.announced', { ...workerFields(worker), for_app: appSlug });
  for await (const contract of contracts.walk(ctx)) ctx.events.stage('core.workers.contract.announced', { ...contractFields(contract), for_app: appSlug });
}
