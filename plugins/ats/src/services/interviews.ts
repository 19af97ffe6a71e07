import { ConflictError, InvalidError, NotFoundError, parseInstant } from '@wpk/sdk';
import { createHash, randomBytes } from 'node:crypto';
import { resource, type AtsBaseContext, type AtsContext, type AtsEvent } from '../kit.js';
import type { Interview, Slot } from '../models/index.js';
import { requireApplication } from './applications.js';
import { erasedEmail } from './candidates.js';
import { interviewMachine } from './machines.js';
import { DEFAULT_MESSAGES, noticeOfInterview, sendMessage, wantsNotice, type Notify } from './messages.js';
import { presentInterview } from './present.js';

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The workspace's interviews (their reads hang off the application). */
const interviews = resource({ model: 'interviews', label: 'Interview', order: [['created_at', 'ASC'], ['id', 'ASC']] });

function requireInterview(ctx: AtsContext, id: string): Promise<Interview> {
  return interviews.require(ctx, id, { lock: 'update' });
}

function instant(value: string, field: string): Date {
  const parsed = parseInstant(value);
  if (!parsed) throw new InvalidError(`${field} must be an ISO 8601 instant`);
  return parsed;
}

export interface InterviewInput {
  stage_id?: string; title?: string; panel?: Array<{ member_mrn: string; role?: string }>; scheduled_at?: string;
  duration_minutes?: number; location?: string; instructions?: string;
}

/**
 * Creates an interview of an active application, in its current stage unless `stage_id` names
 * another stage of the pipeline. The panel defaults to the stage's default interviewers; with
 * `scheduled_at` it is on the calendar at once (`scheduled`), otherwise `requested`.
 */
export async function createInterview(ctx: AtsContext, applicationId: string, input: InterviewInput, notify?: Notify) {
  const notice = wantsNotice(notify);
  if (notice && !input.scheduled_at) throw new InvalidError('notify_candidate: the candidate is mailed an invitation, which needs scheduled_at');
  const application = await requireApplication(ctx, applicationId, true);
  if (application.status !== 'active') throw new ConflictError(`Application ${applicationId} is ${application.status}; interviews are for active applications`);
  const job = (await ctx.db.jobs.findById(application.job_id))!;
  const stageId = input.stage_id ?? application.stage_id;
  const stage = await ctx.db.stages.findOne({ where: { id: stageId, pipeline_id: job.pipeline_id } });
  if (!stage) throw new InvalidError(`stage_id ${stageId} is not a stage of job ${job.id}'s pipeline`);
  // A panel given was checked by the route; a default interviewer of the stage may have left since the stage was made.
  if (!input.panel && stage.default_interviewers.length) await ctx.members.require(stage.default_interviewers, `panel (stage ${stage.name}'s default interviewers)`);
  const panel = input.panel ?? stage.default_interviewers.map((mrn) => ({ member_mrn: mrn, role: 'interviewer' }));
  const seen = new Set<string>();
  for (const [index, member] of panel.entries()) {
    if (seen.has(member.member_mrn)) throw new InvalidError(`panel[${index}].member_mrn ${member.member_mrn} is on the panel twice`);
    seen.add(member.member_mrn);
  }
  const scheduledAt = input.scheduled_at ? instant(input.scheduled_at, 'scheduled_at') : null;
  const interview = await interviews.create(ctx, {
    application_id: applicationId, stage_id: stage.id, title: input.title ?? stage.name, panel: panel.map((member) => ({ member_mrn: member.member_mrn, role: member.role ?? 'interviewer' })),
    status: scheduledAt ? 'scheduled' : interviewMachine.initial, scheduled_at: scheduledAt, duration_minutes: input.duration_minutes || stage.duration_minutes || 60,
    location: input.location ?? null, instructions: input.instructions ?? null, organizer_email: ctx.member.email,
  });
  ctx.events.stage('core.ats.interview.created', { interview_id: interview.id, application_id: applicationId, panel_mrns: interview.panel.map((member) => member.member_mrn) });
  if (scheduledAt) ctx.events.stage('core.ats.interview.scheduled', { interview_id: interview.id, application_id: applicationId, scheduled_at: scheduledAt.toISOString(), duration_minutes: interview.duration_minutes, by_candidate: false });
  if (notice) await noticeOfInterview(ctx, interview, 'interview_scheduled', notify!);
  return presentInterview(await interviews.require(ctx, interview.id), ctx.now());
}

/** Schedules (or moves) the interview by `interviewMachine`: a cancelled one is a 409 naming both states. */
async function putOnCalendar(ctx: AtsBaseContext, interview: Interview, at: Date, changes: Partial<Interview>, byCandidate: boolean) {
  const { to, event } = interviewMachine.move(interview.status, 'schedule');
  const update: Partial<Interview> = { ...changes, status: to, scheduled_at: at, self_schedule_token_hash: null, self_schedule_slots: [], self_schedule_expires_at: null };
  await ctx.db.interviews.update(update, { where: { id: interview.id } });
  const updated = { ...interview, ...update };
  ctx.events.stage(event as AtsEvent, { interview_id: interview.id, application_id: interview.application_id, scheduled_at: at.toISOString(), duration_minutes: updated.duration_minutes, by_candidate: byCandidate });
  return updated;
}

/** Puts the interview on the calendar or moves it; a live self-schedule link stops working (the recruiter decided). */
export async function scheduleInterview(ctx: AtsContext, id: string, input: { scheduled_at: string; duration_minutes?: number; location?: string; instructions?: string }, notify?: Notify) {
  const notice = wantsNotice(notify);
  const interview = await requireInterview(ctx, id);
  const changes: Partial<Interview> = { organizer_email: ctx.member.email };
  if (input.duration_minutes !== undefined) changes.duration_minutes = input.duration_minutes;
  if (input.location !== undefined) changes.location = input.location;
  if (input.instructions !== undefined) changes.instructions = input.instructions;
  const scheduled = await putOnCalendar(ctx, interview, instant(input.scheduled_at, 'scheduled_at'), changes, false);
  if (notice) await noticeOfInterview(ctx, scheduled, 'interview_scheduled', notify!);
  return presentInterview(await interviews.require(ctx, id), ctx.now());
}

export interface SelfScheduleInput {
  slots?: Array<{ start: string; end?: string }>; slot_1?: string; slot_2?: string; slot_3?: string; slot_4?: string; slot_5?: string;
  duration_minutes?: number; expires_at?: string; location?: string; instructions?: string;
}

/**
 * Mints a fresh self-schedule link: the slots offered (from `slots` and `slot_1`..`slot_5`,
 * in time order, each in the future, an `end` after its `start`, at most 20), and a new token;
 * the previous token stops working at once. Only the token's hash is kept.
 */
export async function mintSelfSchedule(ctx: AtsContext, id: string, input: SelfScheduleInput, notify?: Notify) {
  const notice = wantsNotice(notify);
  const interview = await requireInterview(ctx, id);
  if (interview.status === 'cancelled') throw new ConflictError(`Interview ${id} is cancelled`);
  const duration = input.duration_minutes ?? interview.duration_minutes;
  const now = ctx.now();
  const offered: Array<{ start: string; end?: string; field: string }> = [
    ...(input.slots ?? []).map((slot, index) => ({ ...slot, field: `slots[${index}]` })),
    ...([1, 2, 3, 4, 5] as const).flatMap((n) => (input[`slot_${n}`] ? [{ start: input[`slot_${n}`]!, field: `slot_${n}` }] : [])),
  ];
  if (offered.length === 0) throw new InvalidError('slots: offer at least one slot (slots or slot_1..slot_5)');
  if (offered.length > 20) throw new InvalidError('slots: at most 20 slots');
  const slots: Slot[] = offered.map((slot) => {
    const start = instant(slot.start, `${slot.field}.start`);
    const end = slot.end ? instant(slot.end, `${slot.field}.end`) : new Date(start.getTime() + duration * 60_000);
    if (end <= start) throw new InvalidError(`${slot.field}: end must be after start`);
    if (start <= now) throw new InvalidError(`${slot.field}: start must be in the future`);
    return { start: start.toISOString(), end: end.toISOString() };
  });
  slots.sort((a, b) => a.start.localeCompare(b.start));
  if (new Set(slots.map((slot) => slot.start)).size !== slots.length) throw new InvalidError('slots: two slots start at the same instant');
  const expiresAt = input.expires_at ? instant(input.expires_at, 'expires_at') : new Date(now.getTime() + ctx.settings.self_schedule_days * 86_400_000);
  if (expiresAt <= now) throw new InvalidError('expires_at must be in the future');
  const token = randomBytes(24).toString('base64url');
  const changes: Partial<Interview> = { self_schedule_token_hash: hashToken(token), self_schedule_slots: slots, self_schedule_expires_at: expiresAt, duration_minutes: duration, organizer_email: ctx.member.email };
  if (input.location !== undefined) changes.location = input.location;
  if (input.instructions !== undefined) changes.instructions = input.instructions;
  await ctx.db.interviews.update(changes, { where: { id } });
  ctx.events.stage('core.ats.interview.self_schedule_sent', { interview_id: id, application_id: interview.application_id, slot_count: slots.length, expires_at: expiresAt.toISOString() });
  const page = `/public/apps/ats/self-schedule.html#${token}`;
  let messageId: string | null = null;
  if (notice) {
    const application = (await ctx.db.applications.findById(interview.application_id))!;
    const candidate = (await ctx.db.candidates.findById(application.candidate_id))!;
    messageId = (await sendMessage(ctx, { candidate, application, trigger: 'self_schedule', template_id: notify!.template_id, fallback: DEFAULT_MESSAGES.self_schedule, values: { interview_link: `${ctx.workspace.origin}${page}` } })).id;
  }
  return { interview_id: id, token, link: `/ats/self-schedule/${token}`, page, url: `${ctx.workspace.origin}${page}`, slots, expires_at: expiresAt.toISOString(), message_id: messageId };
}

/** Cancels an interview: status `cancelled`, kept (struck through on the calendar); its link stops working. */
export async function cancelInterview(ctx: AtsContext, id: string, notify?: Notify) {
  const notice = wantsNotice(notify);
  const interview = await requireInterview(ctx, id);
  const { to, event } = interviewMachine.move(interview.status, 'cancel');
  if (notice && !interview.scheduled_at) throw new InvalidError('notify_candidate: the interview was never scheduled, so the candidate has nothing to cancel');
  const changes: Partial<Interview> = { status: to, cancelled_at: ctx.now(), self_schedule_token_hash: null };
  await ctx.db.interviews.update(changes, { where: { id } });
  ctx.events.stage(event as AtsEvent, { interview_id: id, application_id: interview.application_id, cancelled_by: ctx.member.mrn });
  if (notice) await noticeOfInterview(ctx, { ...interview, ...changes }, 'interview_cancelled', notify!);
  return presentInterview(await interviews.require(ctx, id), ctx.now());
}

/** The interview a live token opens, or 404 (unknown, replaced, used, cancelled or expired: all look the same). */
async function byToken(ctx: AtsBaseContext, token: string): Promise<Interview> {
  const interview = /^[A-Za-z0-9_-]{20,64}$/.test(token) ? await ctx.db.interviews.findOne({ where: { self_schedule_token_hash: hashToken(token) }, lock: 'update' }) : null;
  if (!interview || interview.status === 'cancelled' || (interview.self_schedule_expires_at && new Date(interview.self_schedule_expires_at) <= ctx.now())) {
    throw new NotFoundError('This scheduling link is no longer valid');
  }
  return interview;
}

/** What the candidate's page shows: the company, the job, the interview and its open slots; nothing else about the application. */
export async function selfSchedulePage(ctx: AtsBaseContext, token: string) {
  const interview = await byToken(ctx, token);
  const application = (await ctx.db.applications.findById(interview.application_id))!;
  const job = (await ctx.db.jobs.findById(application.job_id))!;
  const candidate = (await ctx.db.candidates.findById(application.candidate_id))!;
  return {
    company: ctx.workspace.name, job_title: job.title, candidate_name: candidate.name, title: interview.title, duration_minutes: interview.duration_minutes,
    location: interview.location, instructions: interview.instructions, slots: interview.self_schedule_slots, expires_at: interview.self_schedule_expires_at,
  };
}

/** The candidate picks one offered slot: the interview is scheduled and the link is used up. */
export async function pickSlot(ctx: AtsBaseContext, token: string, start: string) {
  const interview = await byToken(ctx, token);
  const at = parseInstant(start);
  const slot = at && interview.self_schedule_slots.find((offered) => new Date(offered.start).getTime() === at.getTime());
  if (!slot) throw new InvalidError('start is not one of the offered slots');
  const duration = Math.round((new Date(slot.end).getTime() - new Date(slot.start).getTime()) / 60_000);
  const updated = await putOnCalendar(ctx, interview, new Date(slot.start), { duration_minutes: duration }, true);
  // The candidate's confirmation, with the invitation for their calendar (not to an erased record).
  const application = (await ctx.db.applications.findById(interview.application_id))!;
  const candidate = (await ctx.db.candidates.findById(application.candidate_id))!;
  if (candidate.email !== erasedEmail(candidate.id)) await noticeOfInterview(ctx, updated, 'self_scheduled', {});
  return { title: updated.title, scheduled_at: new Date(slot.start).toISOString(), duration_minutes: duration, location: updated.location };
}
