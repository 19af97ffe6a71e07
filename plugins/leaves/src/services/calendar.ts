import { Op } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import type { LeaveRequest } from '../models/index.js';
import { units } from './days.js';

/** Who is out between two days (approved requests; submitted ones too when asked), optionally in one department. */
export async function whoIsOut(ctx: AnyCtx, range: { from: string; to: string; department_id?: string; worker_id?: string; include_pending?: boolean }) {
  const workers = await ctx.db.workers.findAll({ where: { ...(range.department_id ? { department_id: range.department_id } : {}), ...(range.worker_id ? { id: range.worker_id } : {}) } });
  const byId = new Map(workers.map((worker) => [worker.id, worker]));
  if (!byId.size) return [];
  const rows: LeaveRequest[] = await ctx.db.requests.findAll({
    where: { worker_id: [...byId.keys()], status: range.include_pending ? ['approved', 'submitted'] : ['approved'], from_date: { [Op.lte]: range.to }, to_date: { [Op.gte]: range.from } },
    order: [['from_date', 'ASC'], ['id', 'ASC']],
  });
  const types = new Map((await ctx.db.leaveTypes.findAll({})).map((type) => [type.id, type]));
  return rows.map((row) => ({
    request_id: row.id,
    worker_id: row.worker_id,
    worker_name: byId.get(row.worker_id)!.name,
    department_id: byId.get(row.worker_id)!.department_id,
    type_id: row.type_id,
    type_name: types.get(row.type_id)?.name ?? '',
    from_date: row.from_date,
    from_half: row.from_half,
    to_date: row.to_date,
    to_half: row.to_half,
    duration: units(row.duration),
    status: row.status,
  }));
}

/** One CSV cell: quoted when needed; a leading = + - @ is neutralised so a spreadsheet never runs it. */
function cell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Who is out as CSV, one request a line. */
export function outCsv(rows: Awaited<ReturnType<typeof whoIsOut>>): string {
  const header = ['worker', 'type', 'from_date', 'from_half', 'to_date', 'to_half', 'duration', 'status'];
  const lines = rows.map((row) => [row.worker_name, row.type_name, row.from_date, row.from_half, row.to_date, row.to_half, row.duration, row.status].map(cell).join(','));
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
