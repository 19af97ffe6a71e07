import { DataTypes, defineModel } from '@wpk/sdk';

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

const id = { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 };
const json = (fallback: unknown) => ({ type: DataTypes.JSONB, allowNull: false, defaultValue: fallback });
const text = (length?: number) => ({ type: length ? DataTypes.STRING(length) : DataTypes.TEXT, allowNull: true });

/** A hiring pipeline: an ordered list of stages; one per workspace is the default. */
export interface Pipeline { id: string; name: string; description: string; is_default: boolean; created_by: string | null; created_at: Date; updated_at: Date }
/** A scoring criterion of a stage's scorecard. */
export interface Criterion { label: string; key: string; weight?: number; competency_mrn?: string; description?: string }
/** A stage of a pipeline, at `position` (0 first). */
export interface Stage {
  id: string; pipeline_id: string; name: string; type: string; key: string | null; position: number;
  criteria: Criterion[]; questions: Array<{ text: string; category?: string }>; default_interviewers: string[];
  required_evaluations: number; sla_days: number; duration_minutes: number; created_at: Date; updated_at: Date;
}
/** A screening question of a job. */
export interface ScreeningQuestion { text: string; type: string; key: string; html?: string; options?: string[]; disqualify_on?: string[]; required?: boolean }
/** A job opening. Salary bounds are exact decimals (strings as PostgreSQL `numeric` gives them). */
export interface Job {
  id: string; title: string; pipeline_id: string; description: string; department_mrn: string | null; location: string | null;
  workplace_type: string | null; employment_type: string | null; headcount: number; hiring_manager_mrn: string | null; recruiter_mrn: string | null;
  hiring_team: Array<{ member_mrn: string; role: string }>; salary_min: string | null; salary_max: string | null; salary_currency: string | null;
  salary_visible: boolean; screening_questions: ScreeningQuestion[]; careers_visibility: string; assessment_ref: string | null;
  status: JobStatus; status_reason: string | null; created_by: string | null; opened_at: Date | null; closed_at: Date | null; created_at: Date; updated_at: Date;
}
/** One approver's decision on a job (`pending` until they decide). */
export interface JobApproval { id: string; job_id: string; approver_mrn: string; status: string; comment: string | null; decided_at: Date | null; created_at: Date; updated_at: Date }
/** A resume file kept in the app's storage. */
export interface ResumeFile { key: string; filename: string; content_type: string; size_bytes: number }
/** A person who applies or is sourced; the email is unique in the workspace (case-insensitive). */
export interface Candidate {
  id: string; name: string; email: string; phone: string | null; location: string | null; headline: string | null;
  links: Record<string, string>; tags: string[]; source: string | null; source_detail: string | null; referrer_mrn: string | null;
  owner_mrn: string | null; resume: ResumeFile[]; created_by: string | null; created_at: Date; updated_at: Date;
}
/** A candidate's application to a job, sitting in one stage of the job's pipeline. */
export interface Application {
  id: string; candidate_id: string; job_id: string; stage_id: string; status: ApplicationStatus; source: string | null; rejection_reason: string | null;
  screening_answers: Record<string, unknown>; stage_entered_at: Date; decided_at: Date | null; created_by: string | null; created_at: Date; updated_at: Date;
}
/** An entry of a candidate's timeline: a note, a stage move, a status change, a message. */
export interface Activity { id: string; candidate_id: string; application_id: string | null; kind: string; content: string; author_mrn: string | null; created_at: Date; updated_at: Date }
/** A slot offered to the candidate for self-scheduling. */
export interface Slot { start: string; end: string }
/** An interview of an application, with its panel. */
export interface Interview {
  id: string; application_id: string; stage_id: string | null; title: string; panel: Array<{ member_mrn: string; role: string }>; status: InterviewStatus;
  scheduled_at: Date | null; duration_minutes: number; location: string | null; instructions: string | null; self_schedule_token_hash: string | null;
  self_schedule_slots: Slot[]; self_schedule_expires_at: Date | null; cancelled_at: Date | null; calendar_sequence: number; organizer_email: string | null; created_at: Date; updated_at: Date;
}
/** A scorecard asked of one member. */
export interface Evaluation {
  id: string; application_id: string; evaluator_mrn: string; stage_id: string | null; interview_id: string | null; is_shadow: boolean; status: EvaluationStatus;
  ratings: Array<{ key: string; rating: number; note?: string }>; recommendation: string | null; notes: string | null; submitted_at: Date | null;
  cancelled_at: Date | null; requested_by: string | null; created_at: Date; updated_at: Date;
}
/** An offer to an application's candidate; amounts are exact decimals. */
export interface Offer {
  id: string; application_id: string; status: OfferStatus; base: string | null; currency: string | null; period: string | null; bonus: string | null;
  equity: string | null; benefits: string[]; notes: string | null; start_date: string | null; status_reason: string | null; created_by: string | null; created_at: Date; updated_at: Date;
}
/** A message template with merge fields (`{{candidate_name}}`, ...). */
export interface Template { id: string; name: string; kind: string; subject: string; body_html: string; created_by: string | null; created_at: Date; updated_at: Date }
/** A mail sent to a candidate, as sent (the candidate's message history). `sent_by` is the member's MRN, null when the candidate's own action sent it. */
export interface Message {
  id: string; candidate_id: string; application_id: string | null; template_id: string | null; trigger: string; to_email: string; reply_to: string | null;
  subject: string; body_html: string; body_text: string; calendar_method: string | null; sent_by: string | null; created_at: Date; updated_at: Date;
}
/** A careers-page snippet a website embeds; `retired` is for good. */
export interface Embed { id: string; name: string; department_mrn: string | null; location: string | null; status: EmbedStatus; retired_at: Date | null; created_by: string | null; created_at: Date; updated_at: Date }
/** A candidate's full-text rank against a job (the view `candidate_matches`). */
export interface CandidateMatch { job_id: string; candidate_id: string; score: number }

export const models = {
  pipelines: defineModel<Pipeline>('pipelines', {
    id, name: { type: DataTypes.STRING(100), allowNull: false }, description: { type: DataTypes.STRING(1000), allowNull: false, defaultValue: '' },
    is_default: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false }, created_by: { type: DataTypes.UUID, allowNull: true },
  }),
  stages: defineModel<Stage>('stages', {
    id, pipeline_id: { type: DataTypes.UUID, allowNull: false }, name: { type: DataTypes.STRING(100), allowNull: false }, type: { type: DataTypes.STRING(20), allowNull: false },
    key: text(50), position: { type: DataTypes.INTEGER, allowNull: false }, criteria: json([]), questions: json([]), default_interviewers: json([]),
    required_evaluations: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 }, sla_days: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    duration_minutes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  }),
  jobs: defineModel<Job>('jobs', {
    id, title: { type: DataTypes.STRING(200), allowNull: false }, pipeline_id: { type: DataTypes.UUID, allowNull: false }, description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
    department_mrn: text(200), location: text(200), workplace_type: text(20), employment_type: text(20), headcount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
    hiring_manager_mrn: text(200), recruiter_mrn: text(200), hiring_team: json([]), salary_min: { type: DataTypes.DECIMAL(14, 2), allowNull: true },
    salary_max: { type: DataTypes.DECIMAL(14, 2), allowNull: true }, salary_currency: text(3), salary_visible: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    screening_questions: json([]), careers_visibility: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'public' }, assessment_ref: text(100),
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'draft' }, status_reason: text(1000), created_by: { type: DataTypes.UUID, allowNull: true },
    opened_at: { type: DataTypes.DATE, allowNull: true }, closed_at: { type: DataTypes.DATE, allowNull: true },
  }),
  jobApprovals: defineModel<JobApproval>('job_approvals', {
    id, job_id: { type: DataTypes.UUID, allowNull: false }, approver_mrn: { type: DataTypes.STRING(200), allowNull: false },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'pending' }, comment: text(1000), decided_at: { type: DataTypes.DATE, allowNull: true },
  }),
  candidates: defineModel<Candidate>('candidates', {
    id, name: { type: DataTypes.STRING(200), allowNull: false }, email: { type: DataTypes.STRING(320), allowNull: false }, phone: text(50), location: text(200), headline: text(200),
    links: json({}), tags: json([]), source: text(20), source_detail: text(200), referrer_mrn: text(200), owner_mrn: text(200), resume: json([]),
    created_by: { type: DataTypes.UUID, allowNull: true },
  }),
  applications: defineModel<Application>('applications', {
    id, candidate_id: { type: DataTypes.UUID, allowNull: false }, job_id: { type: DataTypes.UUID, allowNull: false }, stage_id: { type: DataTypes.UUID, allowNull: false },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'active' }, source: text(20), rejection_reason: text(1000), screening_answers: json({}),
    stage_entered_at: { type: DataTypes.DATE, allowNull: false }, decided_at: { type: DataTypes.DATE, allowNull: true }, created_by: { type: DataTypes.UUID, allowNull: true },
  }),
  activities: defineModel<Activity>('activities', {
    id, candidate_id: { type: DataTypes.UUID, allowNull: false }, application_id: { type: DataTypes.UUID, allowNull: true }, kind: { type: DataTypes.STRING(20), allowNull: false },
    content: { type: DataTypes.TEXT, allowNull: false }, author_mrn: text(200),
  }),
  interviews: defineModel<Interview>('interviews', {
    id, application_id: { type: DataTypes.UUID, allowNull: false }, stage_id: { type: DataTypes.UUID, allowNull: true }, title: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
    panel: json([]), status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'requested' }, scheduled_at: { type: DataTypes.DATE, allowNull: true },
    duration_minutes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 60 }, location: text(500), instructions: text(5000), self_schedule_token_hash: text(64),
    self_schedule_slots: json([]), self_schedule_expires_at: { type: DataTypes.DATE, allowNull: true }, cancelled_at: { type: DataTypes.DATE, allowNull: true },
    calendar_sequence: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 }, organizer_email: text(320),
  }),
  messages: defineModel<Message>('messages', {
    id, candidate_id: { type: DataTypes.UUID, allowNull: false }, application_id: { type: DataTypes.UUID, allowNull: true }, template_id: { type: DataTypes.UUID, allowNull: true },
    trigger: { type: DataTypes.STRING(30), allowNull: false }, to_email: { type: DataTypes.STRING(320), allowNull: false }, reply_to: text(320),
    subject: { type: DataTypes.STRING(998), allowNull: false }, body_html: { type: DataTypes.TEXT, allowNull: false }, body_text: { type: DataTypes.TEXT, allowNull: false },
    calendar_method: text(10), sent_by: text(200),
  }),
  evaluations: defineModel<Evaluation>('evaluations', {
    id, application_id: { type: DataTypes.UUID, allowNull: false }, evaluator_mrn: { type: DataTypes.STRING(200), allowNull: false }, stage_id: { type: DataTypes.UUID, allowNull: true },
    interview_id: { type: DataTypes.UUID, allowNull: true }, is_shadow: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'requested' }, ratings: json([]), recommendation: text(20), notes: text(20000),
    submitted_at: { type: DataTypes.DATE, allowNull: true }, cancelled_at: { type: DataTypes.DATE, allowNull: true }, requested_by: { type: DataTypes.UUID, allowNull: true },
  }),
  offers: defineModel<Offer>('offers', {
    id, application_id: { type: DataTypes.UUID, allowNull: false }, status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'draft' },
    base: { type: DataTypes.DECIMAL(14, 2), allowNull: true }, currency: text(3), period: text(10), bonus: { type: DataTypes.DECIMAL(14, 2), allowNull: true }, equity: text(200),
    benefits: json([]), notes: text(5000), start_date: { type: DataTypes.DATEONLY, allowNull: true }, status_reason: text(1000), created_by: { type: DataTypes.UUID, allowNull: true },
  }),
  templates: defineModel<Template>('templates', {
    id, name: { type: DataTypes.STRING(100), allowNull: false }, kind: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'general' },
    subject: { type: DataTypes.STRING(300), allowNull: false, defaultValue: '' }, body_html: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' }, created_by: { type: DataTypes.UUID, allowNull: true },
  }),
  embeds: defineModel<Embed>('embeds', {
    id, name: { type: DataTypes.STRING(100), allowNull: false }, department_mrn: text(200), location: text(200),
    status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'active' }, retired_at: { type: DataTypes.DATE, allowNull: true }, created_by: { type: DataTypes.UUID, allowNull: true },
  }),
  candidateMatches: defineModel<CandidateMatch>('candidate_matches', {
    job_id: { type: DataTypes.UUID, primaryKey: true }, candidate_id: { type: DataTypes.UUID, primaryKey: true }, score: { type: DataTypes.REAL, allowNull: false },
  }, { timestamps: false }),
};

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
