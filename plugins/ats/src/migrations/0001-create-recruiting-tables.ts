import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The Recruiting app's tables, in its own schema (`app_ats`), each keyed by workspace
 * (`tenantTable`). Jobs and candidates carry a generated `tsvector` of their own text, and the
 * view `candidate_matches` ranks every candidate against every job with PostgreSQL's full-text
 * ranking (`ts_rank`), so matches are computed inside the database, on both the embedded and
 * the server PostgreSQL, with no extra service.
 */
export const createRecruitingTables: AppMigration = {
  name: '0001-create-recruiting-tables',
  async up({ query }) {
    await query(tenantTable('pipelines', {
      columns: { id: 'uuid NOT NULL', name: 'varchar(100) NOT NULL', description: "varchar(1000) NOT NULL DEFAULT ''", is_default: 'boolean NOT NULL DEFAULT false', created_by: 'uuid' },
      unique: [['lower(name)']],
    }));
    await query(tenantTable('stages', {
      columns: {
        id: 'uuid NOT NULL',
        pipeline_id: 'uuid NOT NULL',
        name: 'varchar(100) NOT NULL',
        type: 'varchar(20) NOT NULL',
        key: 'varchar(50)',
        position: 'integer NOT NULL',
        criteria: "jsonb NOT NULL DEFAULT '[]'",
        questions: "jsonb NOT NULL DEFAULT '[]'",
        default_interviewers: "jsonb NOT NULL DEFAULT '[]'",
        required_evaluations: 'integer NOT NULL DEFAULT 0',
        sla_days: 'integer NOT NULL DEFAULT 0',
        duration_minutes: 'integer NOT NULL DEFAULT 0',
      },
      references: { pipeline_id: { table: 'pipelines' } },
    }));
    await query(tenantTable('jobs', {
      columns: {
        id: 'uuid NOT NULL',
        title: 'varchar(200) NOT NULL',
        pipeline_id: 'uuid NOT NULL',
        description: "text NOT NULL DEFAULT ''",
        department_mrn: 'varchar(200)',
        location: 'varchar(200)',
        workplace_type: 'varchar(20)',
        employment_type: 'varchar(20)',
        headcount: 'integer NOT NULL DEFAULT 1',
        hiring_manager_mrn: 'varchar(200)',
        recruiter_mrn: 'varchar(200)',
        hiring_team: "jsonb NOT NULL DEFAULT '[]'",
        salary_min: 'numeric(14,2)',
        salary_max: 'numeric(14,2)',
        salary_currency: 'varchar(3)',
        salary_visible: 'boolean NOT NULL DEFAULT false',
        screening_questions: "jsonb NOT NULL DEFAULT '[]'",
        careers_visibility: "varchar(20) NOT NULL DEFAULT 'public'",
        assessment_ref: 'varchar(100)',
        status: "varchar(20) NOT NULL DEFAULT 'draft'",
        status_reason: 'varchar(1000)',
        created_by: 'uuid',
        opened_at: 'timestamptz',
        closed_at: 'timestamptz',
        search_vector: "tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(title, '') || ' ' || coalesce(location, '') || ' ' || coalesce(description, ''))) STORED",
      },
      references: { pipeline_id: { table: 'pipelines', onDelete: 'restrict' } },
    }));
    await query(tenantTable('job_approvals', {
      columns: { id: 'uuid NOT NULL', job_id: 'uuid NOT NULL', approver_mrn: 'varchar(200) NOT NULL', status: "varchar(20) NOT NULL DEFAULT 'pending'", comment: 'varchar(1000)', decided_at: 'timestamptz' },
      references: { job_id: { table: 'jobs' } },
      unique: [['job_id', 'approver_mrn']],
    }));
    await query(tenantTable('candidates', {
      columns: {
        id: 'uuid NOT NULL',
        name: 'varchar(200) NOT NULL',
        email: 'varchar(320) NOT NULL',
        phone: 'varchar(50)',
        location: 'varchar(200)',
        headline: 'varchar(200)',
        links: "jsonb NOT NULL DEFAULT '{}'",
        tags: "jsonb NOT NULL DEFAULT '[]'",
        source: 'varchar(20)',
        source_detail: 'varchar(200)',
        referrer_mrn: 'varchar(200)',
        owner_mrn: 'varchar(200)',
        resume: "jsonb NOT NULL DEFAULT '[]'",
        created_by: 'uuid',
        search_vector: "tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(headline, '') || ' ' || coalesce(location, '') || ' ' || coalesce(tags::text, ''))) STORED",
      },
      unique: [['lower(email)']],
    }));
    await query(tenantTable('applications', {
      columns: {
        id: 'uuid NOT NULL',
        candidate_id: 'uuid NOT NULL',
        job_id: 'uuid NOT NULL',
        stage_id: 'uuid NOT NULL',
        status: "varchar(20) NOT NULL DEFAULT 'active'",
        source: 'varchar(20)',
        rejection_reason: 'varchar(1000)',
        screening_answers: "jsonb NOT NULL DEFAULT '{}'",
        stage_entered_at: 'timestamptz NOT NULL DEFAULT now()',
        decided_at: 'timestamptz',
        created_by: 'uuid',
      },
      references: { candidate_id: { table: 'candidates' }, job_id: { table: 'jobs' }, stage_id: { table: 'stages', onDelete: 'restrict' } },
      unique: [['candidate_id', 'job_id']],
    }));
    await query(tenantTable('activities', {
      columns: { id: 'uuid NOT NULL', candidate_id: 'uuid NOT NULL', application_id: 'uuid', kind: 'varchar(20) NOT NULL', content: 'text NOT NULL', author_mrn: 'varchar(200)' },
      references: { candidate_id: { table: 'candidates' }, application_id: { table: 'applications' } },
    }));
    await query(tenantTable('interviews', {
      columns: {
        id: 'uuid NOT NULL',
        application_id: 'uuid NOT NULL',
        stage_id: 'uuid',
        title: "varchar(200) NOT NULL DEFAULT ''",
        panel: "jsonb NOT NULL DEFAULT '[]'",
        status: "varchar(20) NOT NULL DEFAULT 'requested'",
        scheduled_at: 'timestamptz',
        duration_minutes: 'integer NOT NULL DEFAULT 60',
        location: 'varchar(500)',
        instructions: 'varchar(5000)',
        self_schedule_token_hash: 'varchar(64)',
        self_schedule_slots: "jsonb NOT NULL DEFAULT '[]'",
        self_schedule_expires_at: 'timestamptz',
        cancelled_at: 'timestamptz',
      },
      references: { application_id: { table: 'applications' }, stage_id: { table: 'stages', onDelete: 'no action' } },
      unique: [['self_schedule_token_hash']],
    }));
    await query(tenantTable('evaluations', {
      columns: {
        id: 'uuid NOT NULL',
        application_id: 'uuid NOT NULL',
        evaluator_mrn: 'varchar(200) NOT NULL',
        stage_id: 'uuid',
        interview_id: 'uuid',
        is_shadow: 'boolean NOT NULL DEFAULT false',
        status: "varchar(20) NOT NULL DEFAULT 'requested'",
        ratings: "jsonb NOT NULL DEFAULT '[]'",
        recommendation: 'varchar(20)',
        notes: 'varchar(20000)',
        submitted_at: 'timestamptz',
        cancelled_at: 'timestamptz',
        requested_by: 'uuid',
      },
      references: { application_id: { table: 'applications' }, stage_id: { table: 'stages', onDelete: 'no action' }, interview_id: { table: 'interviews', onDelete: 'no action' } },
    }));
    await query(tenantTable('offers', {
      columns: {
        id: 'uuid NOT NULL',
        application_id: 'uuid NOT NULL',
        status: "varchar(20) NOT NULL DEFAULT 'draft'",
        base: 'numeric(14,2)',
        currency: 'varchar(3)',
        period: 'varchar(10)',
        bonus: 'numeric(14,2)',
        equity: 'varchar(200)',
        benefits: "jsonb NOT NULL DEFAULT '[]'",
        notes: 'varchar(5000)',
        start_date: 'date',
        status_reason: 'varchar(1000)',
        created_by: 'uuid',
      },
      references: { application_id: { table: 'applications' } },
    }));
    await query(tenantTable('templates', {
      columns: { id: 'uuid NOT NULL', name: 'varchar(100) NOT NULL', kind: "varchar(20) NOT NULL DEFAULT 'general'", subject: "varchar(300) NOT NULL DEFAULT ''", body_html: "text NOT NULL DEFAULT ''", created_by: 'uuid' },
      unique: [['lower(name)']],
    }));
    await query(tenantTable('embeds', {
      columns: { id: 'uuid NOT NULL', name: 'varchar(100) NOT NULL', department_mrn: 'varchar(200)', location: 'varchar(200)', status: "varchar(20) NOT NULL DEFAULT 'active'", retired_at: 'timestamptz', created_by: 'uuid' },
    }));
    await query(tenantTable('member_directory', {
      columns: { member_id: 'uuid NOT NULL', removed_at: 'timestamptz', removed_by: 'uuid' },
      primaryKey: ['member_id'],
    }));
    await query(`
      CREATE INDEX applications_job_idx ON applications (workspace_id, job_id, created_at);
      CREATE INDEX activities_candidate_idx ON activities (workspace_id, candidate_id, created_at);
      CREATE INDEX jobs_search_idx ON jobs USING gin (search_vector);
      CREATE INDEX candidates_search_idx ON candidates USING gin (search_vector);
      CREATE VIEW candidate_matches AS
        SELECT j.workspace_id, j.id AS job_id, c.id AS candidate_id,
               ts_rank(c.search_vector, replace(plainto_tsquery('english', j.title || ' ' || coalesce(j.location, '') || ' ' || j.description)::text, '&', '|')::tsquery) AS score
          FROM jobs j JOIN candidates c ON c.workspace_id = j.workspace_id
         WHERE c.search_vector @@ replace(plainto_tsquery('english', j.title || ' ' || coalesce(j.location, '') || ' ' || j.description)::text, '&', '|')::tsquery;
    `);
  },
  async down({ query }) {
    await query('DROP VIEW candidate_matches; DROP TABLE member_directory, embeds, templates, offers, evaluations, interviews, activities, applications, candidates, job_approvals, jobs, stages, pipelines');
  },
};
