import { formatMrn, InvalidError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Activity } from '../models/index.js';

/** The subjects a timeline is kept for: this app's deals and leads, and the kept contacts and companies. */
const SUBJECT = /^mrn:(crm:deal|crm:lead|contacts:contact|companies:company):[0-9a-f-]{36}$/i;

export const presentActivity = (activity: Activity) => ({
  id: activity.id, subject_mrn: activity.subject_mrn, kind: activity.kind, title: activity.title, occurred_at: activity.occurred_at, source_mrn: activity.source_mrn,
});

/** One subject's timeline, newest first. */
export function listActivities(ctx: Ctx, subjectMrn: string) {
  if (!SUBJECT.test(subjectMrn)) throw new InvalidError('subject_mrn: name a deal, lead, contact or company (mrn:crm:deal:{id}, mrn:crm:lead:{id}, mrn:contacts:contact:{id}, mrn:companies:company:{id})', { field: 'subject_mrn' });
  return ctx.db.activities.findAndCountAll({ where: { subject_mrn: subjectMrn.toLowerCase() }, order: [['occurred_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** Adds an entry unless the subject already has one from this source event. */
async function record(ctx: AnyCtx, entry: { subject_mrn: string; kind: Activity['kind']; title: string; source_mrn: string | null; source_key: string }): Promise<void> {
  await ctx.db.activities.upsert({ ...entry, subject_mrn: entry.subject_mrn.toLowerCase(), title: entry.title.slice(0, 300), occurred_at: ctx.now() }, { conflictFields: ['subject_mrn', 'source_key'], update: [] });
}

/** `core.calls.call.ended` with a `source_mrn` naming a deal, lead, contact or company: a call on its timeline. */
export async function callEnded(ctx: AnyCtx, payload: { call_id: string; source_mrn?: string; duration_seconds: number }): Promise<void> {
  if (!payload.source_mrn || !SUBJECT.test(payload.source_mrn)) return;
  const minutes = Math.round(payload.duration_seconds / 60);
  await record(ctx, { subject_mrn: payload.source_mrn, kind: 'call', title: `Call, ${minutes} min`, source_mrn: formatMrn('calls', 'call', payload.call_id), source_key: `core.calls.call.ended:${payload.call_id}` });
}

/** `core.tasks.task.created` with a `source_mrn` naming a deal, lead, contact or company: the task on its timeline. */
export async function taskCreated(ctx: AnyCtx, payload: { task_id: string; title: string; source_mrn?: string }): Promise<void> {
  if (!payload.source_mrn || !SUBJECT.test(payload.source_mrn)) return;
  await record(ctx, { subject_mrn: payload.source_mrn, kind: 'task', title: `Task: ${payload.title}`, source_mrn: formatMrn('tasks', 'task', payload.task_id), source_key: `core.tasks.task.created:${payload.task_id}` });
}

/** `core.tasks.task.completed` with a `source_mrn` naming a subject: the task done, once however often it is reopened and done again. */
export async function taskCompleted(ctx: AnyCtx, payload: { task_id: string; title?: string; source_mrn?: string }): Promise<void> {
  if (!payload.source_mrn || !SUBJECT.test(payload.source_mrn)) return;
  await record(ctx, { subject_mrn: payload.source_mrn, kind: 'task', title: `Task done: ${payload.title ?? 'a task'}`, source_mrn: formatMrn('tasks', 'task', payload.task_id), source_key: `core.tasks.task.completed:${payload.task_id}` });
}

/** `core.meetings.meeting.scheduled` with a `source_mrn` naming a subject: the meeting and when it starts (UTC). */
export async function meetingScheduled(ctx: AnyCtx, payload: { meeting_id: string; title: string; starts_at: string; source_mrn?: string }): Promise<void> {
  if (!payload.source_mrn || !SUBJECT.test(payload.source_mrn)) return;
  const starts = new Date(payload.starts_at).toISOString().slice(0, 16).replace('T', ' ');
  await record(ctx, { subject_mrn: payload.source_mrn, kind: 'meeting', title: `Meeting: ${payload.title}, ${starts} UTC`, source_mrn: formatMrn('meetings', 'meeting', payload.meeting_id), source_key: `core.meetings.meeting.scheduled:${payload.meeting_id}` });
}

/** `core.mail.message.sent`: a mail on the timeline of each lead and kept contact it went to. */
export async function mailSent(ctx: AnyCtx, payload: { message_id: string; to_addresses: string[]; cc_addresses: string[]; subject: string }): Promise<void> {
  const addresses = [...new Set([...payload.to_addresses, ...payload.cc_addresses].map((address) => address.trim().toLowerCase()).filter(Boolean))].slice(0, 300);
  if (!addresses.length) return;
  const key = `core.mail.message.sent:${payload.message_id}`.slice(0, 300);
  const title = `Mail: ${payload.subject || '(no subject)'}`;
  const leads = await ctx.db.leads.findAll({ where: { email: addresses } });
  const contacts = await ctx.db.contacts.findAll({ where: { primary_email: addresses } });
  for (const lead of leads) await record(ctx, { subject_mrn: formatMrn('crm', 'lead', lead.id), kind: 'mail', title, source_mrn: null, source_key: key });
  for (const contact of contacts) await record(ctx, { subject_mrn: formatMrn('contacts', 'contact', contact.id), kind: 'mail', title, source_mrn: null, source_key: key });
}
