import { createHash, randomBytes } from 'node:crypto';
import { ForbiddenError, InvalidError, NotFoundError } from '@wpk/sdk';
import ical from 'ical-generator';
import type { AnyCtx, Ctx } from '../kit.js';
import { addDays } from './days.js';
import { whoIsOut } from './calendar.js';
import { HR_KEY, visibleWorkers } from './requests.js';

/** Only a token's SHA-256 is kept: the link is shown once, when it is made. */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Makes an iCal link of who is out: one worker's approved leave (the worker, their manager, HR) or
 * one department's (anyone who sees who is out). Answers the link once; it is a bearer secret.
 */
export async function createFeed(ctx: Ctx, input: { worker_id?: string; department_id?: string }) {
  if (!input.worker_id === !input.department_id) throw new InvalidError('Give worker_id or department_id (one of them)', { field: input.worker_id ? 'department_id' : 'worker_id' });
  if (input.worker_id) {
    if (!(await ctx.db.workers.findById(input.worker_id))) throw new InvalidError(`worker_id ${input.worker_id} is not a worker known to Leaves`, { field: 'worker_id' });
    const visible = await visibleWorkers(ctx);
    if (visible && !visible.includes(input.worker_id)) throw new ForbiddenError(`Only the worker, their manager or HR (${HR_KEY}) makes a feed of worker ${input.worker_id}`);
  } else if (!(await ctx.db.departments.findById(input.department_id!))) throw new InvalidError(`department_id ${input.department_id} is not a department known to Leaves`, { field: 'department_id' });
  const token = randomBytes(24).toString('base64url');
  const feed = await ctx.db.feeds.create({ token_hash: hashToken(token), worker_id: input.worker_id ?? null, department_id: input.department_id ?? null, created_by: ctx.member.id });
  const path = `/leaves/feeds/${token}`;
  return { id: feed.id, worker_id: feed.worker_id, department_id: feed.department_id, path, url: `${ctx.workspace.origin}${path}` };
}

const HALF_NAMES = { am: 'morning', pm: 'afternoon' } as const;

/** The iCal text of a feed: approved leave from a year back to two years ahead, one all-day event per request. */
export async function feedCalendar(ctx: AnyCtx, token: string): Promise<string> {
  const feed = await ctx.db.feeds.findOne({ where: { token_hash: hashToken(token) } });
  if (!feed) throw new NotFoundError('Feed not found');
  const today = ctx.now().toISOString().slice(0, 10);
  const rows = await whoIsOut(ctx, { from: addDays(today, -366), to: addDays(today, 731), ...(feed.worker_id ? { worker_id: feed.worker_id } : { department_id: feed.department_id! }) });
  const subject = feed.worker_id ? (await ctx.db.workers.findById(feed.worker_id))?.name : (await ctx.db.departments.findById(feed.department_id!))?.name;
  const calendar = ical({ name: `Time off: ${subject ?? 'unknown'}`, prodId: { company: 'Workspace Platform Kit', product: 'Leaves' } });
  for (const row of rows) {
    const halves = [row.from_half === 'pm' ? `from the ${HALF_NAMES.pm} of ${row.from_date}` : '', row.to_half === 'am' ? `until the ${HALF_NAMES.am} of ${row.to_date}` : ''].filter(Boolean).join(', ');
    calendar.createEvent({
      id: `${row.request_id}@leaves`,
      start: new Date(`${row.from_date}T00:00:00.000Z`),
      end: new Date(`${addDays(row.to_date, 1)}T00:00:00.000Z`),
      allDay: true,
      summary: `${row.worker_name}: ${row.type_name}${halves ? ` (${halves})` : ''}`,
    });
  }
  return calendar.toString();
}
