import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription, type AnyCtx } from '../kit.js';
import type { Models } from '../models/index.js';
import { mayOpen } from '../services/access.js';
import { departmentCopy, membersOf, workerCopy } from '../services/departments.js';
import { indexPaper } from '../services/search-documents.js';
import { sweepImportUpload } from '../services/transfer.js';

/**
 * The copies department shares read (services/departments.ts), kept from the Workers app's events:
 * a worker's member and department (a deleted worker counts as terminated), a department's parent.
 * `*.announced` brings what existed before the app was installed.
 */
const WORKER_ACTIONS = ['hired', 'updated', 'department_changed', 'activated', 'offboarding_started', 'terminated', 'rehired', 'deleted', 'announced'] as const;
const DEPARTMENT_ACTIONS = ['created', 'updated', 'moved', 'deleted', 'announced'] as const;

interface WorkerFacts { worker_id: string; member_id?: string | null; department_id?: string | null; status: string; revision: number }
interface DepartmentFacts { department_id: string; name: string; parent_id?: string | null; revision: number }

/** After a change of who is in which department: the papers shared with a department are indexed again for their readers (at most 500). */
async function reindexDepartmentPapers(ctx: AnyCtx): Promise<void> {
  const shares = await ctx.db.shares.findAll({ where: { principal_type: 'department' }, attributes: ['paper_id'], limit: 2000 });
  const ids = [...new Set(shares.map((share) => share.paper_id))].slice(0, 500);
  for (const id of ids) {
    const paper = await ctx.db.papers.findById(id);
    if (paper) await indexPaper(ctx, paper);
  }
}

/** The members each shared department reaches now (with those below it), by department id; departments of at most 500 papers. */
async function departmentAudiences(ctx: AnyCtx): Promise<Map<string, Set<string>>> {
  const shares = await ctx.db.shares.findAll({ where: { principal_type: 'department' }, attributes: ['principal_id'], limit: 2000 });
  const audiences = new Map<string, Set<string>>();
  for (const id of new Set(shares.map((share) => share.principal_id))) audiences.set(id, await membersOf(ctx, [id]));
  return audiences;
}

/**
 * After a change of who is in which department: a member the change took out of a department a
 * paper is shared with, and who may no longer open the paper, loses its live channel at once
 * (`paper.access_changed` with `revoke`: their socket gets `revoked`, and no more of its events).
 */
async function revokeLeavers(ctx: AnyCtx, before: Map<string, Set<string>>): Promise<void> {
  const after = await departmentAudiences(ctx);
  const left = new Map<string, string[]>();
  for (const [department, members] of before) {
    const gone = [...members].filter((member) => !after.get(department)?.has(member));
    if (gone.length > 0) left.set(department, gone);
  }
  if (left.size === 0) return;
  const shares = await ctx.db.shares.findAll({ where: { principal_type: 'department', principal_id: [...left.keys()] }, attributes: ['paper_id', 'principal_id'] });
  for (const paperId of new Set(shares.map((share) => share.paper_id))) {
    const paper = await ctx.db.papers.findById(paperId);
    if (!paper) continue;
    const candidates = [...new Set(shares.filter((share) => share.paper_id === paperId).flatMap((share) => left.get(share.principal_id) ?? []))];
    const members = await ctx.members.getMany(candidates);
    const paperShares = await ctx.db.shares.findAll({ where: { paper_id: paperId }, attributes: ['principal_type', 'principal_id'] });
    const revoke: string[] = [];
    for (const id of candidates) {
      const member = members.get(id);
      if (!member || !(await mayOpen(ctx, paper, paperShares, member))) revoke.push(id);
    }
    if (revoke.length > 0) ctx.live.publish(`papers/${paper.id}`, 'paper.access_changed', { id: paper.id }, { revoke });
  }
}

const onWorker = (verb: (typeof WORKER_ACTIONS)[number]) =>
  subscription(`core.workers.worker.${verb}`, async (event, ctx) => {
    const facts = event.payload as unknown as WorkerFacts;
    const before = await departmentAudiences(ctx);
    const { applied } = await workerCopy.keep(ctx, facts.worker_id, facts.revision, { member_id: facts.member_id ?? null, department_id: facts.department_id ?? null, status: verb === 'deleted' ? 'terminated' : facts.status });
    if (!applied) return;
    await reindexDepartmentPapers(ctx);
    await revokeLeavers(ctx, before);
  });

const onDepartment = (verb: (typeof DEPARTMENT_ACTIONS)[number]) =>
  subscription(`core.workers.department.${verb}`, async (event, ctx) => {
    const facts = event.payload as unknown as DepartmentFacts;
    const before = await departmentAudiences(ctx);
    const { applied } = await departmentCopy.keep(ctx, facts.department_id, facts.revision, { name: facts.name.slice(0, 200), parent_id: facts.parent_id ?? null, deleted: verb === 'deleted' });
    if (!applied) return;
    await reindexDepartmentPapers(ctx);
    await revokeLeavers(ctx, before);
  });

/** `core.papers.upload.expired` {file_key}: the app's own delayed wake-up; an upload never imported is deleted. */
const onUploadExpired = subscription('core.papers.upload.expired', async (event, ctx) => {
  if (await sweepImportUpload(ctx, event.payload.file_key)) ctx.log.info({ action: event.action, file_key: event.payload.file_key }, 'abandoned import upload deleted');
});

export const subscriptions = {
  'core.papers.upload.expired': onUploadExpired,
  ...Object.fromEntries(WORKER_ACTIONS.map((verb) => [`core.workers.worker.${verb}`, onWorker(verb)])),
  ...Object.fromEntries(DEPARTMENT_ACTIONS.map((verb) => [`core.workers.department.${verb}`, onDepartment(verb)])),
} as SubscriptionHandlers<Models, AppTypes>;
