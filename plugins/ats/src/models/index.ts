import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** Job statuses (docs/apps/ats.md, "Job states"; the moves: services/machines.ts). */
export const JOB_STATUSES = ['draft', 'approval', 'open', 'hold', 'closed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Application statuses (docs/apps/ats.md, "Application states"). */
export const APPLICATION_STATUSES = ['active', 'rejected', 'hired', 'on_hold', 'withdrawn'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
/** Offer statuses (docs/apps/ats.md, "Offer states"). */
export const OFFER_STATUSES = ['draft', 'approval', 'approved', 'sent', 'rescinded'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
/** Interview statuses: requested until it has a time, scheduled, or cancelled (kept). */
export const INTERVIEW_STATUSES = ['requested', 'scheduled', 'cancelled'] as const;
export type InterviewStatus = (typeof INTERVIEW_STATUSES)[number];
/** Scorecard statuses: requested, then submitted or cancelled. */
export const EVALUATION_STATUSES = ['requested', 'submitted', 'cancelled'] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
/** Careers embed statuses: retired is for good. */
export const EMBED_STATUSES = ['active', 'retired'] as const;
export type EmbedStatus = (typeof EMBED_STATUSES)[number];

/** A hiring pipeline: an ordered list of stages; one per workspace is the default. */
export type Pipeline = DeclaredRow<typeof models.pipelines>;
/** A scoring criterion of a stage's scorecard. */
export interface Criterion { label: string; key: string; weight?: number; competency_mrn?: string; description?: string }
/** A stage of a pipeline, at `position` (0 first). */
export type Stage = DeclaredRow<typeof models.stages>;
/** A screening question of a job. */
export interface ScreeningQuestion { text: string; type: string; key: string; html?: string; options?: string[]; disqualify_on?: string[]; required?: boolean }
/** A job opening. Salary bounds are exact decimals (strings as PostgreSQL `numeric` gives them). */
export type Job = DeclaredRow<typeof models.jobs>;
/** One approver's decision on a job (`pending` until they decide). */
export type JobApproval = DeclaredRow<typeof models.jobApprovals>;
/** A resume file kept in the app's storage. */
export interface ResumeFile { key: string; filename: string; content_type: string; size_bytes: number }
/** A person who applies or is sourced; the email is unique in the workspace (case-insensitive). */
export type Candidate = DeclaredRow<typeof models.candidates>;
/** A candidate's application to a job, sitting in one stage of the job's pipeline. */
export type Application = DeclaredRow<typeof models.applications>;
/** An entry of a candidate's timeline: a note, a stage move, a status change, a message. */
export type Activity = DeclaredRow<typeof models.activities>;
/** A slot offered to the candidate for self-scheduling. */
export interface Slot { start: string; end: string }
/** An interview of an application, with its panel. */
export type Interview = DeclaredRow<typeof models.interviews>;
/** A scorecard asked of one member. */
export type Evaluation = DeclaredRow<typeof models.evaluations>;
/** An offer to an application's candidate; amounts are exact decimals. */
export type Offer = DeclaredRow<typeof models.offers>;
/** A message template with merge fields (`{{candidate_name}}`, ...). */
export type Template = DeclaredRow<typeof models.templates>;
/** A mail sent to a candidate, as sent (the candidate's message history). `sent_by` is the member's MRN, null when the candidate's own action sent it. */
export type Message = DeclaredRow<typeof models.messages>;
/** A careers-page snippet a website embeds; `retired` is for good. */
export type Embed = DeclaredRow<typeof models.embeds>;
/** A candidate's full-text rank against a job (the view `candidate_matches`). */
export type CandidateMatch = DeclaredRow<typeof models.candidateMatches>;

export const models = {
  /** The copy of Growth's competencies (`core.growth.competency.*`): what a criterion's `competency_mrn` may name. */
  competencies: defineModel('competencies', {
    id: column.uuid().primaryKey(),
    name: column.string(200),
    revision: column.integer(),
    deleted: column.boolean().default(false),
  }),
  pipelines: defineModel('pipelines', {
    id: column.uuid().primaryKey().defaultRandom(),
    name: column.string(100),
    description: column.string(1000).default(''),
    is_default: column.boolean().default(false),
    created_by: column.uuid().nullable(),
  }),
  stages: defineModel('stages', {
    id: column.uuid().primaryKey().defaultRandom(),
    pipeline_id: column.uuid(),
    name: column.string(100),
    type: column.string(20),
    key: column.string(50).nullable(),
    position: column.integer(),
    criteria: column.json<Criterion[]>().default([]),
    questions: column.json<Array<{ text: string; category?: string }>>().default([]),
    default_interviewers: column.json<string[]>().default([]),
    required_evaluations: column.integer().default(0),
    sla_days: column.integer().default(0),
    duration_minutes: column.integer().default(0),
  }),
  jobs: defineModel('jobs', {
    id: column.uuid().primaryKey().defaultRandom(),
    title: column.string(200),
    pipeline_id: column.uuid(),
    description: column.text().default(''),
    department_mrn: column.string(200).nullable(),
    location: column.string(200).nullable(),
    workplace_type: column.string(20).nullable(),
    employment_type: column.string(20).nullable(),
    headcount: column.integer().default(1),
    hiring_manager_mrn: column.string(200).nullable(),
    recruiter_mrn: column.string(200).nullable(),
    hiring_team: column.json<Array<{ member_mrn: string; role: string }>>().default([]),
    salary_min: column.decimal(14, 2).nullable(),
    salary_max: column.decimal(14, 2).nullable(),
    salary_currency: column.string(3).nullable(),
    salary_visible: column.boolean().default(false),
    screening_questions: column.json<ScreeningQuestion[]>().default([]),
    careers_visibility: column.string(20).default('public'),
    assessment_ref: column.string(100).nullable(),
    status: column.enum(JOB_STATUSES, 20).default('draft'),
    status_reason: column.string(1000).nullable(),
    created_by: column.uuid().nullable(),
    opened_at: column.date().nullable(),
    closed_at: column.date().nullable(),
  }),
  jobApprovals: defineModel('job_approvals', {
    id: column.uuid().primaryKey().defaultRandom(),
    job_id: column.uuid(),
    approver_mrn: column.string(200),
    status: column.string(20).default('pending'),
    comment: column.string(1000).nullable(),
    decided_at: column.date().nullable(),
  }),
  candidates: defineModel('candidates', {
    id: column.uuid().primaryKey().defaultRandom(),
    name: column.string(200),
    email: column.string(320),
    phone: column.string(50).nullable(),
    location: column.string(200).nullable(),
    headline: column.string(200).nullable(),
    links: column.json<Record<string, string>>().default({}),
    tags: column.json<string[]>().default([]),
    source: column.string(20).nullable(),
    source_detail: column.string(200).nullable(),
    referrer_mrn: column.string(200).nullable(),
    owner_mrn: column.string(200).nullable(),
    resume: column.json<ResumeFile[]>().default([]),
    created_by: column.uuid().nullable(),
  }),
  applications: defineModel('applications', {
    id: column.uuid().primaryKey().defaultRandom(),
    candidate_id: column.uuid(),
    job_id: column.uuid(),
    stage_id: column.uuid(),
    status: column.enum(APPLICATION_STATUSES, 20).default('active'),
    source: column.string(20).nullable(),
    rejection_reason: column.string(1000).nullable(),
    screening_answers: column.json<Record<string, unknown>>().default({}),
    stage_entered_at: column.date(),
    decided_at: column.date().nullable(),
    created_by: column.uuid().nullable(),
  }),
  activities: defineModel('activities', {
    id: column.uuid().primaryKey().defaultRandom(),
    candidate_id: column.uuid(),
    application_id: column.uuid().nullable(),
    kind: column.string(20),
    content: column.text(),
    author_mrn: column.string(200).nullable(),
  }),
  interviews: defineModel('interviews', {
    id: column.uuid().primaryKey().defaultRandom(),
    application_id: column.uuid(),
    stage_id: column.uuid().nullable(),
    title: column.string(200).default(''),
    panel: column.json<Array<{ member_mrn: string; role: string }>>().default([]),
    status: column.enum(INTERVIEW_STATUSES, 20).default('requested'),
    scheduled_at: column.date().nullable(),
    duration_minutes: column.integer().default(60),
    location: column.string(500).nullable(),
    instructions: column.string(5000).nullable(),
    self_schedule_token_hash: column.string(64).nullable(),
    self_schedule_slots: column.json<Slot[]>().default([]),
    self_schedule_expires_at: column.date().nullable(),
    cancelled_at: column.date().nullable(),
    calendar_sequence: column.integer().default(0),
    organizer_email: column.string(320).nullable(),
  }),
  messages: defineModel('messages', {
    id: column.uuid().primaryKey().defaultRandom(),
    candidate_id: column.uuid(),
    application_id: column.uuid().nullable(),
    template_id: column.uuid().nullable(),
    trigger: column.string(30),
    to_email: column.string(320),
    reply_to: column.string(320).nullable(),
    subject: column.string(998),
    body_html: column.text(),
    body_text: column.text(),
    calendar_method: column.string(10).nullable(),
    sent_by: column.string(200).nullable(),
  }),
  evaluations: defineModel('evaluations', {
    id: column.uuid().primaryKey().defaultRandom(),
    application_id: column.uuid(),
    evaluator_mrn: column.string(200),
    stage_id: column.uuid().nullable(),
    interview_id: column.uuid().nullable(),
    is_shadow: column.boolean().default(false),
    status: column.enum(EVALUATION_STATUSES, 20).default('requested'),
    ratings: column.json<Array<{ key: string; rating: number; note?: string }>>().default([]),
    recommendation: column.string(20).nullable(),
    notes: column.string(20000).nullable(),
    submitted_at: column.date().nullable(),
    cancelled_at: column.date().nullable(),
    requested_by: column.uuid().nullable(),
  }),
  offers: defineModel('offers', {
    id: column.uuid().primaryKey().defaultRandom(),
    application_id: column.uuid(),
    status: column.enum(OFFER_STATUSES, 20).default('draft'),
    base: column.decimal(14, 2).nullable(),
    currency: column.string(3).nullable(),
    period: column.string(10).nullable(),
    bonus: column.decimal(14, 2).nullable(),
    equity: column.string(200).nullable(),
    benefits: column.json<string[]>().default([]),
    notes: column.string(5000).nullable(),
    start_date: column.dateOnly().nullable(),
    status_reason: column.string(1000).nullable(),
    created_by: column.uuid().nullable(),
  }),
  templates: defineModel('templates', {
    id: column.uuid().primaryKey().defaultRandom(),
    name: column.string(100),
    kind: column.string(20).default('general'),
    subject: column.string(300).default(''),
    body_html: column.text().default(''),
    created_by: column.uuid().nullable(),
  }),
  embeds: defineModel('embeds', {
    id: column.uuid().primaryKey().defaultRandom(),
    name: column.string(100),
    department_mrn: column.string(200).nullable(),
    location: column.string(200).nullable(),
    status: column.enum(EMBED_STATUSES, 20).default('active'),
    retired_at: column.date().nullable(),
    created_by: column.uuid().nullable(),
  }),
  candidateMatches: defineModel('candidate_matches', {
    job_id: column.uuid().primaryKey(),
    candidate_id: column.uuid().primaryKey(),
    score: column.real(),
  }, { timestamps: false }),
};

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
