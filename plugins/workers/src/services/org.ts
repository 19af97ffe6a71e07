import { Op } from '@wpk/sdk';
import type { WorkersBaseContext } from '../kit.js';
import type { Worker } from '../models/index.js';
import { workerMrn } from './present.js';
import { requireWorker } from './workers.js';

/** A worker as the org chart and the reports list show them: who, what, and under whom. */
export function orgNode(worker: Worker, depth: number) {
  return { id: worker.id, mrn: workerMrn(worker.id), name: worker.name, title: worker.title, department_id: worker.department_id, manager_id: worker.manager_id, status: worker.status, member_id: worker.member_id, depth };
}

/** The rows of these ids, by id. */
async function rowsById(ctx: WorkersBaseContext, ids: string[]): Promise<Map<string, Worker>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.workers.findAll({ where: { id: { [Op.in]: ids } } });
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The workers below `workerId` in the manager tree (one recursive query), `depth` levels down
 * (absent: all), nearest level first, then by name.
 */
export async function reportsOf(ctx: WorkersBaseContext, workerId: string, depth: number | undefined) {
  const worker = await requireWorker(ctx, workerId);
  const below = await ctx.db.workers.descendants({ from: [worker.id], parent: 'manager_id', ...(depth ? { depth } : {}) });
  const rows = await rowsById(ctx, below.map((row) => row.id));
  const nodes = below.map((row) => orgNode(rows.get(row.id)!, row.depth));
  nodes.sort((a, b) => a.depth - b.depth || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { worker: orgNode(worker, 0), depth: depth ?? 'all', reports: nodes };
}

/**
 * The org chart: from `rootId` (or from every worker without a manager), each worker followed by
 * their reports, depth-first, siblings by name. Each node names its manager and its depth (0: a
 * root), so a client draws the tree in one pass.
 */
export async function orgChart(ctx: WorkersBaseContext, rootId: string | undefined) {
  const roots = rootId ? [await requireWorker(ctx, rootId)] : await ctx.db.workers.findAll({ where: { manager_id: null }, order: [['name', 'ASC'], ['id', 'ASC']] });
  const below = await ctx.db.workers.descendants({ from: roots.map((root) => root.id), parent: 'manager_id' });
  const rows = await rowsById(ctx, below.map((row) => row.id));
  const children = new Map<string, Worker[]>();
  for (const row of rows.values()) {
    const list = children.get(row.manager_id!) ?? [];
    list.push(row);
    children.set(row.manager_id!, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const nodes: ReturnType<typeof orgNode>[] = [];
  const visit = (worker: Worker, depth: number, seen: Set<string>) => {
    if (seen.has(worker.id)) return;
    seen.add(worker.id);
    nodes.push(orgNode(worker, depth));
    for (const child of children.get(worker.id) ?? []) visit(child, depth + 1, seen);
  };
  const seen = new Set<string>();
  for (const root of roots) visit(root, 0, seen);
  return { root_id: rootId ?? null, nodes };
}
