import { isUuid, Op, parseMrn } from '@wpk/sdk';
import type { WorkersBaseContext } from '../kit.js';
import { confirm } from './checklist-runs.js';
import { applyCurrent, createWorker, emailIs, workers } from './workers.js';

/** A member joined: the worker with their e-mail as work e-mail (and no member yet) is linked to them. */
export async function linkMember(ctx: WorkersBaseContext, memberId: string): Promise<void> {
  const member = await ctx.members.get(memberId);
  if (!member) return;
  await ctx.lock(`email:${member.email.toLowerCase()}`);
  if (await ctx.db.workers.findOne({ where: { member_id: member.id } })) return;
  const worker = await ctx.db.workers.findOne({ where: { work_email: emailIs(member.email), member_id: null }, lock: 'update' });
  if (worker) await applyCurrent(ctx, worker, { member_id: member.id });
}

/** A member left: every worker linked to them is unlinked (the worker record stays). */
export async function unlinkMember(ctx: WorkersBaseContext, memberId: string): Promise<void> {
  const linked = await ctx.db.workers.findAll({ where: { member_id: memberId }, lock: 'update' });
  for (const worker of linked) {
    await confirm(ctx, worker.id, 'access_removed', 'core.account.member.removed');
    await applyCurrent(ctx, worker, { member_id: null, former_member_id: memberId });
  }
}

/** Files' `core.files.transfer.completed`: the files of the member `from_mrn` were transferred; their workers' items waiting for it are done. */
export async function filesTransferred(ctx: WorkersBaseContext, fromMrn: unknown): Promise<void> {
  const parsed = typeof fromMrn === 'string' ? parseMrn(fromMrn) : null;
  if (!parsed || parsed.app !== 'account' || parsed.resource !== 'member' || !isUuid(parsed.id)) return;
  const linked = await ctx.db.workers.findAll({ where: { member_id: parsed.id.toLowerCase() } });
  for (const worker of linked) await confirm(ctx, worker.id, 'files_transferred', 'core.files.transfer.completed');
}

/** What recruiting's `core.ats.application.hired` carries. */
export interface Hire {
  application_id: string;
  candidate_name: string;
  candidate_email: string;
  job_title: string;
}

/** The hire a payload of recruiting's (typed there, not here) describes, or null when a field is missing. */
export function asHire(payload: Record<string, unknown>): Hire | null {
  const text = (key: string) => (typeof payload[key] === 'string' && (payload[key] as string).trim() ? (payload[key] as string) : null);
  const [application_id, candidate_name, candidate_email, job_title] = ['application_id', 'candidate_name', 'candidate_email', 'job_title'].map(text);
  if (!application_id || !isUuid(application_id) || !candidate_name || !candidate_email || !job_title) return null;
  return { application_id: application_id.toLowerCase(), candidate_name: candidate_name.trim().slice(0, 200), candidate_email, job_title };
}

/**
 * A hire in recruiting: a draft worker in onboarding with the candidate's name and e-mail and the
 * job's title; once per application (a repeated delivery finds it). A worker who already has the
 * e-mail (a rehire) is left as it is, logged.
 */
export async function draftFromHire(ctx: WorkersBaseContext, hire: Hire): Promise<void> {
  await ctx.lock(`application:${hire.application_id}`);
  if (await ctx.db.workers.findOne({ where: { application_id: hire.application_id } })) return;
  const email = hire.candidate_email.trim();
  const known = await ctx.db.workers.findOne({ where: { work_email: emailIs(email) } });
  if (known) {
    ctx.log.info({ application_id: hire.application_id, worker_id: known.id }, 'hire of a known work e-mail: no new worker');
    return;
  }
  await createWorker(ctx, { name: hire.candidate_name, work_email: email, title: hire.job_title.slice(0, 200) }, { application_id: hire.application_id });
}

/** A future-dated change is due: the worker's current values follow their history. */
export async function applyDueChange(ctx: WorkersBaseContext, workerId: string): Promise<void> {
  const worker = await workers.find(ctx, workerId, { lock: 'update' });
  if (worker) await applyCurrent(ctx, worker);
}

/**
 * Tasks' `core.tasks.member.released` {member_mrn}: the member's open tasks were unassigned; the
 * items of the workers linked to them (now, or until they left) waiting for it are done.
 */
export async function tasksReleased(ctx: WorkersBaseContext, memberMrnValue: unknown): Promise<void> {
  const parsed = typeof memberMrnValue === 'string' ? parseMrn(memberMrnValue) : null;
  if (!parsed || parsed.app !== 'account' || parsed.resource !== 'member' || !isUuid(parsed.id)) return;
  const memberId = parsed.id.toLowerCase();
  const linked = await ctx.db.workers.findAll({ where: { [Op.or]: [{ member_id: memberId }, { former_member_id: memberId }] } });
  for (const worker of linked) await confirm(ctx, worker.id, 'tasks_unassigned', 'core.tasks.member.released');
}

/** Leaves' `core.leaves.time_off.cleared` {worker_id}: the worker's items waiting for their future time off to be cancelled are done. */
export async function timeOffCleared(ctx: WorkersBaseContext, workerId: unknown): Promise<void> {
  if (typeof workerId !== 'string' || !isUuid(workerId)) return;
  await confirm(ctx, workerId.toLowerCase(), 'time_off_cancelled', 'core.leaves.time_off.cleared');
}
