import { ConflictError, InvalidError, isUuid } from '@wpk/sdk';
import type { AtsBaseContext, AtsContext } from '../kit.js';
import type { Application, Candidate, Interview, Message } from '../models/index.js';
import { addTimelineEntry, erasedEmail, requireCandidate } from './candidates.js';
import { checkMergeFields, invitation, readableTime, renderMessage, type MergeValues } from './mail-text.js';

/** Why a message was sent: by hand, or with one of the operations that offer `notify_candidate`. */
export const MESSAGE_TRIGGERS = ['manual', 'status_changed', 'stage_moved', 'interview_scheduled', 'interview_cancelled', 'self_schedule', 'self_scheduled', 'offer_sent', 'offer_rescinded'] as const;
export type MessageTrigger = (typeof MESSAGE_TRIGGERS)[number];

/** The mail an operation sends when the caller gives no template: subject and HTML body with merge fields. */
export interface MessageText { subject: string; body_html: string }

const dear = '<p>Dear {{candidate_first_name}},</p>';

/** The built-in mails of the operations (docs/apps/ats.md, "Messages to candidates"). */
export const DEFAULT_MESSAGES = {
  reject: { subject: 'Your application for {{job_title}} at {{company_name}}', body_html: `${dear}<p>Thank you for your interest in the {{job_title}} position at {{company_name}} and for the time you gave us. After careful consideration, we have decided not to move forward with your application.</p><p>We wish you every success in your search.</p>` },
  hire: { subject: 'Welcome to {{company_name}}', body_html: `${dear}<p>We are delighted to confirm that you are joining {{company_name}} as {{job_title}}. We will be in touch shortly about your first day.</p>` },
  hold: { subject: 'Your application for {{job_title}} at {{company_name}}', body_html: `${dear}<p>Your application for {{job_title}} is on hold for the moment. We will get back to you as soon as we can.</p>` },
  withdraw: { subject: 'Your application for {{job_title}} was withdrawn', body_html: `${dear}<p>As you asked, we have withdrawn your application for {{job_title}}. Thank you for your interest in {{company_name}}.</p>` },
  reopen: { subject: 'Your application for {{job_title}} at {{company_name}}', body_html: `${dear}<p>We have reopened your application for {{job_title}} and will be in touch about the next steps.</p>` },
  stage_moved: { subject: 'Next steps for {{job_title}} at {{company_name}}', body_html: `${dear}<p>Your application for {{job_title}} has moved on to the {{stage_name}} stage. We will be in touch about what comes next.</p>` },
  interview_scheduled: { subject: 'Your interview for {{job_title}}: {{interview_time}}', body_html: `${dear}<p>Your interview for {{job_title}} at {{company_name}} is on {{interview_time}}.</p><p>Where: {{interview_location}}</p><p>The invitation is attached for your calendar.</p>` },
  interview_cancelled: { subject: 'Your interview for {{job_title}} is cancelled', body_html: `${dear}<p>Your interview for {{job_title}} at {{company_name}} on {{interview_time}} is cancelled. We will be in touch.</p>` },
  self_schedule: { subject: 'Pick a time for your interview for {{job_title}}', body_html: `${dear}<p>Please pick a time for your interview for {{job_title}} at {{company_name}}:</p><p><a href="{{interview_link}}">{{interview_link}}</a></p>` },
  self_scheduled: { subject: 'Your interview for {{job_title}} is booked: {{interview_time}}', body_html: `${dear}<p>Thank you for picking a time. Your interview for {{job_title}} at {{company_name}} is on {{interview_time}}.</p><p>Where: {{interview_location}}</p><p>The invitation is attached for your calendar.</p>` },
  offer_sent: { subject: 'Your offer from {{company_name}}', body_html: `${dear}<p>We are pleased to offer you the position of {{job_title}} at {{company_name}}.</p><p>{{offer_summary}}</p><p>Reply to this mail with any question.</p>` },
  offer_rescinded: { subject: 'An update on your offer from {{company_name}}', body_html: `${dear}<p>We are sorry to tell you that the offer for {{job_title}} at {{company_name}} has been withdrawn.</p>` },
} satisfies Record<string, MessageText>;

/** `notify_candidate` and `template_id` of an operation's body. */
export interface Notify { notify_candidate?: boolean; template_id?: string }

/** True when the operation should mail the candidate; a template without `notify_candidate: true` is refused. */
export function wantsNotice(notify: Notify | undefined): boolean {
  if (notify?.template_id !== undefined && notify.notify_candidate !== true) throw new InvalidError('template_id is used only with notify_candidate: true');
  return notify?.notify_candidate === true;
}

export interface OutgoingMessage {
  candidate: Candidate;
  application?: Application | null;
  trigger: MessageTrigger;
  /** A saved template; its subject and body, unless `subject` / `body_html` replace them. */
  template_id?: string;
  subject?: string;
  body_html?: string;
  /** The operation's built-in mail, when neither a template nor a subject and body are given. */
  fallback?: MessageText;
  /** Values the operation knows (the stage, the interview, the offer). */
  values?: MergeValues;
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
  /** Where replies go when the workspace names no careers mailbox (the interview's organizer). */
  replyTo?: string | null;
}

/** Where replies to the app's mails go: the careers mailbox of the settings, else the member sending, else `fallback`. */
export function replyAddress(ctx: AtsBaseContext, fallback?: string | null): string | null {
  const mailbox = ctx.settings.careers_mailbox?.trim();
  if (mailbox) return mailbox;
  const member = (ctx as Partial<AtsContext>).member;
  return member?.email ?? fallback ?? null;
}

/**
 * Mails the candidate through the platform (`ctx.mail`: it leaves once the request committed,
 * never when it fails) and keeps the message in their history, with a timeline entry and
 * `core.ats.message.sent`. An erased candidate has no address: 409.
 */
export async function sendMessage(ctx: AtsBaseContext, outgoing: OutgoingMessage): Promise<Message> {
  const { candidate, application } = outgoing;
  if (candidate.email === erasedEmail(candidate.id)) throw new ConflictError(`Candidate ${candidate.id} was erased; there is no address to mail`);
  let subject = outgoing.subject;
  let body = outgoing.body_html;
  let templateId: string | null = null;
  if (outgoing.template_id !== undefined) {
    const template = isUuid(outgoing.template_id) ? await ctx.db.templates.findById(outgoing.template_id) : null;
    if (!template) throw new InvalidError(`template_id ${outgoing.template_id} is not a template of this workspace`);
    templateId = template.id;
    subject ||= template.subject;
    body ||= template.body_html;
  }
  if (templateId === null && !subject && !body && outgoing.fallback) ({ subject, body_html: body } = outgoing.fallback);
  checkMergeFields(subject ?? '', 'subject');
  checkMergeFields(body ?? '', 'body_html');
  const job = application ? await ctx.db.jobs.findById(application.job_id) : null;
  const member = (ctx as Partial<AtsContext>).member ?? null;
  const values: MergeValues = {
    candidate_name: candidate.name,
    candidate_first_name: candidate.name.split(/\s+/)[0],
    company_name: ctx.workspace.name,
    ...(job ? { job_title: job.title } : {}),
    ...(member ? { recruiter_name: member.name } : {}),
    ...outgoing.values,
  };
  const rendered = renderMessage(subject ?? '', body ?? '', values);
  const replyTo = replyAddress(ctx, outgoing.replyTo);
  ctx.mail.send({ to: candidate.email, ...(replyTo ? { replyTo } : {}), subject: rendered.subject, text: rendered.text, html: rendered.html, ...(outgoing.calendar ? { calendar: outgoing.calendar } : {}) });
  const sentBy = member?.mrn ?? null;
  const message = await ctx.db.messages.create({
    candidate_id: candidate.id, application_id: application?.id ?? null, template_id: templateId, trigger: outgoing.trigger, to_email: candidate.email, reply_to: replyTo,
    subject: rendered.subject, body_html: rendered.html, body_text: rendered.text, calendar_method: outgoing.calendar?.method ?? null, sent_by: sentBy,
  });
  await addTimelineEntry(ctx, { candidate_id: candidate.id, application_id: application?.id ?? null, kind: 'message', content: `Email sent: ${rendered.subject}`, author_mrn: sentBy });
  ctx.events.stage('core.ats.message.sent', { message_id: message.id, candidate_id: candidate.id, application_id: application?.id ?? null, trigger: outgoing.trigger, sent_by: sentBy });
  return message;
}

export interface ManualMessageInput { template_id?: string; subject?: string; body_html?: string; application_id?: string }

/** `POST /ats/candidates/{id}/messages`: a template, or a subject and body of the sender's own (or both: they replace the template's). */
export async function sendManualMessage(ctx: AtsContext, candidateId: string, input: ManualMessageInput): Promise<Message> {
  const candidate = await requireCandidate(ctx, candidateId);
  let application: Application | null = null;
  if (input.application_id !== undefined) {
    application = isUuid(input.application_id) ? await ctx.db.applications.findById(input.application_id) : null;
    if (!application || application.candidate_id !== candidateId) throw new InvalidError(`application_id ${input.application_id} is not an application of candidate ${candidateId}`);
  }
  if (input.template_id === undefined && (!input.subject?.trim() || !input.body_html?.trim())) throw new InvalidError('Give template_id, or a subject and a body_html');
  return sendMessage(ctx, { candidate, application, trigger: 'manual', template_id: input.template_id, subject: input.subject?.trim() || undefined, body_html: input.body_html?.trim() || undefined });
}

/** The candidate's message history, newest first. */
export async function listMessages(ctx: AtsContext, candidateId: string, applicationId?: string) {
  await requireCandidate(ctx, candidateId);
  return ctx.db.messages.findAndCountAll({ where: { candidate_id: candidateId, ...(applicationId ? { application_id: applicationId } : {}) }, order: [['created_at', 'DESC'], ['id', 'DESC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/**
 * Mails the candidate of an interview about it: the invitation (REQUEST, with the iCalendar
 * event) when it is scheduled or moved, the cancellation (CANCEL) when it is cancelled. Each
 * raises the interview's calendar sequence, so the candidate's calendar replaces its copy.
 */
export async function noticeOfInterview(ctx: AtsBaseContext, interview: Interview, kind: 'interview_scheduled' | 'interview_cancelled' | 'self_scheduled', notify: Notify): Promise<Message> {
  const application = (await ctx.db.applications.findById(interview.application_id))!;
  const candidate = await ctx.db.candidates.findById(application.candidate_id);
  const job = (await ctx.db.jobs.findById(application.job_id))!;
  if (!interview.scheduled_at) throw new InvalidError('notify_candidate: the interview has no time yet; schedule it first');
  const at = new Date(interview.scheduled_at);
  const sequence = interview.calendar_sequence + 1;
  await ctx.db.interviews.update({ calendar_sequence: sequence }, { where: { id: interview.id } });
  const organizer = replyAddress(ctx, interview.organizer_email);
  const method = kind === 'interview_cancelled' ? 'CANCEL' : 'REQUEST';
  const content = invitation({
    method, uid: `${interview.id}@${ctx.workspace.subdomain}.ats`, sequence, stamp: ctx.now(), start: at, minutes: interview.duration_minutes,
    summary: `${interview.title} — ${job.title} at ${ctx.workspace.name}`, location: interview.location, description: interview.instructions,
    organizer: organizer ? { name: ctx.workspace.name, email: organizer } : null, attendee: { name: candidate!.name, email: candidate!.email },
  });
  return sendMessage(ctx, {
    candidate: candidate!, application, trigger: kind, template_id: notify.template_id, fallback: DEFAULT_MESSAGES[kind],
    values: { interview_time: readableTime(at), interview_location: interview.location || 'to be confirmed' }, calendar: { method, content }, replyTo: interview.organizer_email,
  });
}
