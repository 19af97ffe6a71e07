import { field, Joi, recordSchema, type JoiObjectSchema, type JoiSchema } from '@wpk/sdk';
import { APPLICATION_STATUSES, EMBED_STATUSES, EVALUATION_STATUSES, INTERVIEW_STATUSES, JOB_STATUSES, OFFER_STATUSES } from '../models/index.js';
import { MESSAGE_TRIGGERS } from '../services/messages.js';
import { STAGE_TYPES } from '../services/pipelines.js';
import { RECOMMENDATIONS } from '../services/evaluations.js';
import { SOURCES } from '../services/candidates.js';
import { TEMPLATE_KINDS } from '../services/careers.js';
import { APPROVAL_STATUSES, CAREERS_VISIBILITY, EMPLOYMENT_TYPES, HIRING_TEAM_ROLES, OFFER_PERIODS, PANEL_ROLES, QUESTION_TYPES, WORKPLACE_TYPES } from './schemas.js';

/**
 * The records the app answers with, as the routes declare them (`answers`): the OpenAPI
 * document, the typed client and the harness's response checks read them. Every route that
 * answers JSON declares one, the public careers and self-schedule routes included.
 */

const decimal = () => Joi.string().pattern(/^\d+\.\d{2}$/).description('An exact decimal, as a string');
const nullable = (schema: JoiSchema) => schema.allow(null);
const ACTIVITY_KINDS = ['note', 'stage_moved', 'status_changed', 'message'] as const;

/** `{id, deleted: true}`: what a deletion answers. */
export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('AtsDeleted');

const CRITERION = recordSchema(
  { label: Joi.string(), key: Joi.string(), weight: Joi.number(), competency_mrn: Joi.string(), description: Joi.string().allow('') },
  { optional: ['weight', 'competency_mrn', 'description'] },
);
const STAGE_QUESTION = recordSchema({ text: Joi.string(), category: Joi.string() }, { optional: ['category'] });

export const STAGE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  pipeline_id: field.uuid(),
  name: Joi.string(),
  type: Joi.string().valid(...STAGE_TYPES),
  key: Joi.string().allow(null),
  position: Joi.number().integer().min(0),
  criteria: Joi.array().items(CRITERION),
  questions: Joi.array().items(STAGE_QUESTION),
  default_interviewers: Joi.array().items(Joi.string()),
  required_evaluations: Joi.number().integer().min(0),
  sla_days: Joi.number().integer().min(0),
  duration_minutes: Joi.number().integer().min(0),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsStage');

/** `PATCH /ats/stages/{id}/position`: the moved stage and the pipeline's stages in their new order. */
export const STAGE_MOVE: JoiObjectSchema = recordSchema({ stage: STAGE, stages: Joi.array().items(STAGE) }).id('AtsStageMove');

const PIPELINE_KEYS = {
  id: field.uuid(),
  workspace_id: field.uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  is_default: Joi.boolean(),
  created_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
};
export const PIPELINE: JoiObjectSchema = recordSchema(PIPELINE_KEYS).id('AtsPipeline');
export const PIPELINE_WITH_STAGES: JoiObjectSchema = recordSchema({ ...PIPELINE_KEYS, stages: Joi.array().items(STAGE) }).id('AtsPipelineWithStages');

const SCREENING_QUESTION = recordSchema(
  {
    text: Joi.string(), type: Joi.string().valid(...QUESTION_TYPES), key: Joi.string(), html: Joi.string().allow(''),
    options: Joi.array().items(Joi.string()), disqualify_on: Joi.array().items(Joi.string()), required: Joi.boolean(),
  },
  { optional: ['html', 'options', 'disqualify_on', 'required'] },
);

export const JOB_APPROVAL: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  job_id: field.uuid(),
  approver_mrn: Joi.string(),
  status: Joi.string().valid(...APPROVAL_STATUSES),
  comment: Joi.string().allow('', null),
  decided_at: field.optionalInstant(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsJobApproval');

const JOB_KEYS = {
  id: field.uuid(),
  workspace_id: field.uuid(),
  title: Joi.string(),
  pipeline_id: field.uuid(),
  description: Joi.string().allow(''),
  department_mrn: Joi.string().allow(null),
  location: Joi.string().allow(null),
  workplace_type: Joi.string().valid(...WORKPLACE_TYPES).allow(null),
  employment_type: Joi.string().valid(...EMPLOYMENT_TYPES).allow(null),
  headcount: Joi.number().integer().min(1),
  hiring_manager_mrn: Joi.string().allow(null),
  recruiter_mrn: Joi.string().allow(null),
  hiring_team: Joi.array().items(recordSchema({ member_mrn: Joi.string(), role: Joi.string().valid(...HIRING_TEAM_ROLES) })),
  salary_min: nullable(decimal()),
  salary_max: nullable(decimal()),
  salary_currency: Joi.string().length(3).allow(null),
  salary_visible: Joi.boolean(),
  screening_questions: Joi.array().items(SCREENING_QUESTION),
  careers_visibility: Joi.string().valid(...CAREERS_VISIBILITY),
  assessment_ref: Joi.string().allow(null),
  status: Joi.string().valid(...JOB_STATUSES),
  status_reason: Joi.string().allow('', null),
  created_by: field.uuid().allow(null),
  opened_at: field.optionalInstant(),
  closed_at: field.optionalInstant(),
  created_at: field.instant(),
  updated_at: field.instant(),
};
/** A job as lists show it. */
export const JOB: JoiObjectSchema = recordSchema(JOB_KEYS).id('AtsJob');
/** A job with its approvers' decisions. */
export const JOB_WITH_APPROVALS: JoiObjectSchema = recordSchema({ ...JOB_KEYS, approvals: Joi.array().items(JOB_APPROVAL) }).id('AtsJobWithApprovals');
/** `POST /ats/jobs/{id}/approvals`: the caller's decision and the job after it. */
export const APPROVAL_RECORDED: JoiObjectSchema = recordSchema({ approval: JOB_APPROVAL, job: JOB_WITH_APPROVALS }).id('AtsApprovalRecorded');

export const MATCH: JoiObjectSchema = recordSchema({
  candidate_id: field.uuid(),
  name: Joi.string(),
  headline: Joi.string().allow(null),
  location: Joi.string().allow(null),
  tags: Joi.array().items(Joi.string()),
  score: Joi.number().description("PostgreSQL's full-text rank of the candidate against the job"),
}).id('AtsMatch');

const RESUME_FILE = recordSchema({ key: Joi.string(), filename: Joi.string(), content_type: Joi.string(), size_bytes: Joi.number().integer().min(0) });

export const CANDIDATE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  name: Joi.string(),
  email: Joi.string(),
  phone: Joi.string().allow('', null),
  location: Joi.string().allow(null),
  headline: Joi.string().allow(null),
  links: recordSchema({ linkedin: Joi.string(), portfolio: Joi.string(), github: Joi.string(), other: Joi.string() }, { optional: ['linkedin', 'portfolio', 'github', 'other'] }),
  tags: Joi.array().items(Joi.string()),
  source: Joi.string().valid(...SOURCES).allow(null),
  source_detail: Joi.string().allow(null),
  referrer_mrn: Joi.string().allow(null),
  owner_mrn: Joi.string().allow(null),
  resume: Joi.array().items(RESUME_FILE),
  created_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsCandidate');

export const RESUME_UPLOAD: JoiObjectSchema = recordSchema({
  key: Joi.string().description("Send it in the candidate's `resume` once the file is uploaded"),
  filename: Joi.string(),
  content_type: Joi.string(),
  upload: recordSchema({ url: Joi.string().uri(), method: Joi.string(), expires_at: field.instant() }),
}).id('AtsResumeUpload');

export const RESUME_DOWNLOAD: JoiObjectSchema = recordSchema({
  key: Joi.string(),
  filename: Joi.string(),
  content_type: Joi.string(),
  size_bytes: Joi.number().integer().min(0),
  url: Joi.string().uri().description('A download link valid five minutes'),
  expires_at: field.instant(),
}).id('AtsResumeDownload');

export const ACTIVITY: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  candidate_id: field.uuid(),
  application_id: field.uuid().allow(null),
  kind: Joi.string().valid(...ACTIVITY_KINDS),
  content: Joi.string(),
  author_mrn: Joi.string().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsActivity');

export const MESSAGE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  candidate_id: field.uuid(),
  application_id: field.uuid().allow(null),
  template_id: field.uuid().allow(null),
  trigger: Joi.string().valid(...MESSAGE_TRIGGERS),
  to_email: Joi.string(),
  reply_to: Joi.string().allow(null),
  subject: Joi.string(),
  body_html: Joi.string(),
  body_text: Joi.string(),
  calendar_method: Joi.string().valid('REQUEST', 'CANCEL').allow(null).description('The iCalendar method of the invitation the mail carried'),
  sent_by: Joi.string().allow(null).description("The sending member's MRN; null when the candidate's own pick sent it"),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsMessage');

const SLOT = recordSchema({ start: field.instant(), end: field.instant() });

export const INTERVIEW: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  application_id: field.uuid(),
  stage_id: field.uuid().allow(null),
  title: Joi.string().allow(''),
  panel: Joi.array().items(recordSchema({ member_mrn: Joi.string(), role: Joi.string().valid(...PANEL_ROLES) })),
  status: Joi.string().valid(...INTERVIEW_STATUSES),
  scheduled_at: field.optionalInstant(),
  duration_minutes: Joi.number().integer().min(0),
  location: Joi.string().allow('', null),
  instructions: Joi.string().allow('', null),
  self_schedule_slots: Joi.array().items(SLOT).description('The slots a live self-schedule link offers'),
  self_schedule_expires_at: field.optionalInstant(),
  cancelled_at: field.optionalInstant(),
  calendar_sequence: Joi.number().integer().min(0),
  organizer_email: Joi.string().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
  self_schedule_live: Joi.boolean().description('Whether a self-schedule link works now'),
}).id('AtsInterview');

export const SELF_SCHEDULE_LINK: JoiObjectSchema = recordSchema({
  interview_id: field.uuid(),
  token: Joi.string(),
  link: Joi.string().description('The public API route of the link'),
  page: Joi.string().description("The candidate's page, relative to the workspace"),
  url: Joi.string().uri().description("The candidate's page"),
  slots: Joi.array().items(SLOT),
  expires_at: field.instant(),
  message_id: field.uuid().allow(null).description('The mail sent to the candidate, when notify_candidate'),
}).id('AtsSelfScheduleLink');

export const EVALUATION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  application_id: field.uuid(),
  evaluator_mrn: Joi.string(),
  stage_id: field.uuid().allow(null),
  interview_id: field.uuid().allow(null),
  is_shadow: Joi.boolean(),
  status: Joi.string().valid(...EVALUATION_STATUSES),
  ratings: Joi.array().items(recordSchema({ key: Joi.string(), rating: Joi.number().integer().min(1).max(4), note: Joi.string().allow('') }, { optional: ['note'] })),
  recommendation: Joi.string().valid(...RECOMMENDATIONS).allow(null),
  notes: Joi.string().allow('', null),
  submitted_at: field.optionalInstant(),
  cancelled_at: field.optionalInstant(),
  requested_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsEvaluation');

export const OFFER: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  application_id: field.uuid(),
  status: Joi.string().valid(...OFFER_STATUSES),
  base: nullable(decimal()),
  currency: Joi.string().length(3).allow(null),
  period: Joi.string().valid(...OFFER_PERIODS).allow(null),
  bonus: nullable(decimal()),
  equity: Joi.string().allow(null),
  benefits: Joi.array().items(Joi.string()),
  notes: Joi.string().allow('', null),
  start_date: field.date().allow(null),
  status_reason: Joi.string().allow('', null),
  created_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsOffer');

const APPLICATION_KEYS = {
  id: field.uuid(),
  workspace_id: field.uuid(),
  candidate_id: field.uuid(),
  job_id: field.uuid(),
  stage_id: field.uuid(),
  status: Joi.string().valid(...APPLICATION_STATUSES),
  source: Joi.string().valid(...SOURCES).allow(null),
  rejection_reason: Joi.string().allow('', null),
  screening_answers: Joi.object().unknown().description('The answers to the job’s screening questions, by question key'),
  stage_entered_at: field.instant(),
  decided_at: field.optionalInstant(),
  created_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
  stage: recordSchema({ id: field.uuid(), name: Joi.string(), type: Joi.string().valid(...STAGE_TYPES), position: Joi.number().integer().min(0), sla_days: Joi.number().integer().min(0) }).allow(null),
  days_in_stage: Joi.number().integer().min(0),
  sla_overdue: Joi.boolean(),
};
/** An application with its time in stage. */
export const APPLICATION: JoiObjectSchema = recordSchema(APPLICATION_KEYS).id('AtsApplication');
/** An application with its interviews, scorecards and offers. */
export const APPLICATION_DETAIL: JoiObjectSchema = recordSchema({
  ...APPLICATION_KEYS,
  interviews: Joi.array().items(INTERVIEW),
  evaluations: Joi.array().items(EVALUATION),
  offers: Joi.array().items(OFFER),
}).id('AtsApplicationDetail');

export const TEMPLATE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  name: Joi.string(),
  kind: Joi.string().valid(...TEMPLATE_KINDS),
  subject: Joi.string().allow(''),
  body_html: Joi.string().allow(''),
  created_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('AtsTemplate');

export const EMBED: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  workspace_id: field.uuid(),
  name: Joi.string(),
  department_mrn: Joi.string().allow(null),
  location: Joi.string().allow(null),
  status: Joi.string().valid(...EMBED_STATUSES),
  retired_at: field.optionalInstant(),
  created_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
  feed: Joi.string().description('The public feed the snippet reads'),
  snippet: Joi.string().allow(null).description('The HTML to paste in a website; null once retired'),
}).id('AtsEmbed');

/** A job as the public careers page shows it. */
export const CAREER_JOB: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  title: Joi.string(),
  description: Joi.string().allow(''),
  location: Joi.string().allow(null),
  workplace_type: Joi.string().valid(...WORKPLACE_TYPES).allow(null),
  employment_type: Joi.string().valid(...EMPLOYMENT_TYPES).allow(null),
  salary: recordSchema({ min: nullable(decimal()), max: nullable(decimal()), currency: Joi.string().allow(null) }).allow(null).description('Only when the job shows its salary'),
  questions: Joi.array().items(recordSchema(
    { text: Joi.string(), type: Joi.string().valid(...QUESTION_TYPES), key: Joi.string(), html: Joi.string().allow(''), options: Joi.array().items(Joi.string()), required: Joi.boolean() },
    { optional: ['html', 'options'] },
  )),
  apply: Joi.string().description('Where the apply form posts'),
}).id('AtsCareerJob');

/** The careers page, or one embed's feed. */
export const CAREERS_PAGE: JoiObjectSchema = recordSchema({ company: Joi.string(), jobs: Joi.array().items(CAREER_JOB) }).id('AtsCareersPage');

export const CAREERS_APPLICATION: JoiObjectSchema = recordSchema({ job_title: Joi.string(), received: Joi.boolean().valid(true), application_id: field.uuid() }).id('AtsCareersApplication');

/** What a self-schedule link shows the candidate. */
export const SELF_SCHEDULE_PAGE: JoiObjectSchema = recordSchema({
  company: Joi.string(),
  job_title: Joi.string(),
  candidate_name: Joi.string(),
  title: Joi.string().allow(''),
  duration_minutes: Joi.number().integer().min(0),
  location: Joi.string().allow('', null),
  instructions: Joi.string().allow('', null),
  slots: Joi.array().items(SLOT),
  expires_at: field.optionalInstant(),
}).id('AtsSelfSchedulePage');

/** The slot the candidate picked, now on the calendar. */
export const SELF_SCHEDULED: JoiObjectSchema = recordSchema({
  title: Joi.string().allow(''),
  scheduled_at: field.instant(),
  duration_minutes: Joi.number().integer().min(0),
  location: Joi.string().allow('', null),
}).id('AtsSelfScheduled');

/** The caller's own permission keys in the app (`GET /ats/me/permissions`): what the front-end offers. */
export const MY_PERMISSIONS: JoiObjectSchema = recordSchema({ keys: Joi.array().items(Joi.string()).description('The ats.* keys the caller holds, sorted') }).id('AtsMyPermissions');
