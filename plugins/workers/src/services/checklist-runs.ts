import { Op } from '@wpk/sdk';
import type { WorkersBaseContext } from '../kit.js';
import type { Checklist, ChecklistKind, Confirmation, Worker } from '../models/index.js';
import { workerMrn } from './present.js';

/**
 * Opens the worker's checklists of `kind`: one per template for every department or for the
 * worker's current department, items copied in order. An item whose confirmation already holds
 * (an onboarding worker who has an account; an offboarding one who never had one) is done at once.
 * Emits nothing by itself; a checklist done on opening emits `checklist.completed`.
 */
export async function openChecklists(ctx: WorkersBaseContext, worker: Worker, kind: ChecklistKind): Promise<void> {
  const templates = await ctx.db.checklistTemplates.findAll({
    where: { kind, [Op.or]: [{ department_id: null }, ...(worker.department_id ? [{ department_id: worker.department_id }] : [])] },
    order: [['name', 'ASC'], ['id', 'ASC']],
  });
  const now = ctx.now();
  for (const template of templates) {
    const checklist = await ctx.db.checklists.create({ worker_id: worker.id, kind, name: template.name, template_id: template.id, completed_at: null });
    for (const [position, item] of template.items.entries()) {
      const already = item.confirmed_by !== undefined && holds(worker, item.confirmed_by);
      await ctx.db.checklistItems.create({ checklist_id: checklist.id, worker_id: worker.id, position, label: item.label, confirmed_by: item.confirmed_by ?? null, done_at: already ? now : null, done_by: null, done_via: already ? 'already' : null });
    }
    await settle(ctx, checklist);
  }
}

/** Whether a confirmation already holds for the worker as they are. */
function holds(worker: Worker, confirmation: Confirmation): boolean {
  if (confirmation === 'member_linked') return worker.member_id !== null;
  if (confirmation === 'access_removed') return worker.member_id === null;
  // A worker who never had an account had no tasks to unassign.
  if (confirmation === 'tasks_unassigned') return worker.member_id === null && worker.former_member_id === null;
  return false;
}

/**
 * The event `via` confirms `confirmation` for the worker: their open items waiting for it are done
 * (a repeated delivery finds them done and changes nothing).
 */
export async function confirm(ctx: WorkersBaseContext, workerId: string, confirmation: Confirmation, via: string): Promise<void> {
  const items = await ctx.db.checklistItems.findAll({ where: { worker_id: workerId, confirmed_by: confirmation, done_at: null }, lock: 'update' });
  if (items.length === 0) return;
  await ctx.db.checklistItems.update({ done_at: ctx.now(), done_by: null, done_via: via }, { where: { id: items.map((item) => item.id) } });
  const touched = await ctx.db.checklists.findAll({ where: { id: [...new Set(items.map((item) => item.checklist_id))] }, lock: 'update' });
  for (const checklist of touched) await settle(ctx, checklist);
}

/**
 * Records whether the checklist is complete: when its last open item is done it completes (and
 * `checklist.completed` is emitted, once per completion); an item reopened makes it open again.
 */
export async function settle(ctx: WorkersBaseContext & { member?: { mrn: string } | null }, checklist: Checklist): Promise<Checklist> {
  const open = await ctx.db.checklistItems.count({ where: { checklist_id: checklist.id, done_at: null } });
  const complete = open === 0;
  if (complete === (checklist.completed_at !== null)) return checklist;
  const completedAt = complete ? ctx.now() : null;
  await ctx.db.checklists.update({ completed_at: completedAt }, { where: { id: checklist.id } });
  if (complete) {
    ctx.events.stage('core.workers.checklist.completed', { checklist_id: checklist.id, worker_id: checklist.worker_id, worker_mrn: workerMrn(checklist.worker_id), kind: checklist.kind, name: checklist.name, by: ctx.member?.mrn ?? null });
  }
  return { ...checklist, completed_at: completedAt };
}
