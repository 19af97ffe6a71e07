import { css, kit, type RecordKind, type components } from '@wpk/ui';

/** A worker as the API answers it. */
export type Worker = components['schemas']['WorkersWorker'];
/** A location a worker may be given (the app's copy of Settings' locations). */
export type WorkLocation = components['schemas']['WorkersLocation'];
/** A department as the API answers it. */
export type Department = components['schemas']['WorkersDepartment'];
/** A node of the org chart or of a reports list. */
export type OrgNode = components['schemas']['WorkersOrgNode'];
/** A worker's contract. */
export type Contract = components['schemas']['WorkersContract'];
/** How the API's contract types read. */
export const CONTRACT_LABELS: Record<string, string> = { permanent: 'Permanent', fixed_term: 'Fixed term', freelance: 'Freelance', internship: 'Internship' };
/** A worker's checklist with its items. */
export type Checklist = components['schemas']['WorkersChecklist'];
/** A checklist template. */
export type ChecklistTemplate = components['schemas']['WorkersChecklistTemplate'];
/** What ticks an item by itself, as people read it. */
export const CONFIRMATION_LABELS: Record<string, string> = {
  member_linked: 'ticks itself when the worker has a workspace account',
  files_transferred: "ticks itself when the worker's files are transferred",
  access_removed: 'ticks itself when the worker leaves the workspace',
  time_off_cancelled: 'ticks itself when their future time off is cancelled (on termination)',
  tasks_unassigned: 'ticks itself when their open tasks are unassigned (when they leave the workspace)',
};
/** A row of a worker's history. */
export type HistoryRow = components['schemas']['WorkersHistoryRow'];

/** The lifecycle, in order, and the one step forward from each state (terminated: a rehire). */
export const STATUSES = ['onboarding', 'active', 'offboarding', 'terminated'] as const;
export const NEXT_STEP: Record<string, { status: string; label: string }> = {
  onboarding: { status: 'active', label: 'Finish onboarding' },
  active: { status: 'offboarding', label: 'Start offboarding' },
  offboarding: { status: 'terminated', label: 'Terminate' },
  terminated: { status: 'onboarding', label: 'Rehire' },
};

/** How the API's employment types read. */
export const EMPLOYMENT_LABELS: Record<string, string> = { full_time: 'Full time', part_time: 'Part time', contractor: 'Contractor', intern: 'Intern' };

/** A state as people read it: `offboarding` → `Offboarding`. */
export const statusLabel = (status: string): string => status.charAt(0).toUpperCase() + status.slice(1);

/** Every worker and every department (the pickers' options and the names of ids). */
export async function directory(): Promise<{ workers: Worker[]; departments: Department[]; locations: WorkLocation[] }> {
  const { client } = kit();
  const workers: Worker[] = [];
  const departments: Department[] = [];
  const locations: WorkLocation[] = [];
  for await (const worker of client.paginate('getWorkers', { query: { per_page: 100 } })) workers.push(worker as Worker);
  for await (const department of client.paginate('getWorkersDepartments', { query: { per_page: 100 } })) departments.push(department as Department);
  for await (const location of client.paginate('getWorkersLocations', { query: { per_page: 100 } })) locations.push(location as WorkLocation);
  return { workers, departments, locations };
}

/** Workers as the record screens need them: the names, and the app's operations on one. */
export const WORKERS: RecordKind<Worker> = {
  noun: 'worker',
  plural: 'workers',
  nameOf: (worker) => worker.name,
  read: async (id) => (await kit().client.workers.getWorkersByWorkerId({ params: { worker_id: id } })).data as Worker,
  create: async (body) => (await kit().client.workers.postWorkers({ body: body as never })).data as Worker,
  save: async (worker, body) => (await kit().client.workers.patchWorkersByWorkerId({ params: { worker_id: worker.id }, body: body as never })).data as Worker,
  destroy: async (worker) => {
    await kit().client.workers.deleteWorkersByWorkerId({ params: { worker_id: worker.id } });
  },
};

/** Classes indenting a tree's rows by depth (an inline style would break the page's Content-Security-Policy). */
export const DEPTH_STYLES = css`.depth-0 { padding-inline-start: 0.0rem; } .depth-1 { padding-inline-start: 1.5rem; } .depth-2 { padding-inline-start: 3.0rem; } .depth-3 { padding-inline-start: 4.5rem; } .depth-4 { padding-inline-start: 6.0rem; } .depth-5 { padding-inline-start: 7.5rem; } .depth-6 { padding-inline-start: 9.0rem; } .depth-7 { padding-inline-start: 10.5rem; } .depth-8 { padding-inline-start: 12.0rem; }`;

/** The class of a row at `depth` (deeper rows indent as the deepest class). */
export const depthClass = (depth: number): string => `depth-${Math.max(0, Math.min(depth, 8))}`;
