import { defineStateMachine, type StateMove } from '@wpk/sdk';
import { APPLICATION_STATUSES, EMBED_STATUSES, EVALUATION_STATUSES, INTERVIEW_STATUSES, JOB_STATUSES, OFFER_STATUSES } from '../models/index.js';

/**
 * The app's state machines, declared once (docs/apps/ats.md, "Job states", "Application
 * states", "Offer states", "Interviews and scorecards"): the moves each record may make, the
 * event each emits, and the 409 naming both states for any other. The services add the rules a
 * move also needs (approvers, an open job, a permission).
 */

/** A machine whose every move emits one event (a job's, an application's or an offer's status change is `…status_changed`). */
function statusMachine<S extends string, Mv extends string>(spec: { name: string; states: readonly S[]; initial: S; event: string; moves: Record<Mv, { from: readonly S[]; to: S }> }) {
  const moves = Object.fromEntries(Object.entries<{ from: readonly S[]; to: S }>(spec.moves).map(([name, move]) => [name, { ...move, event: spec.event }])) as Record<Mv, StateMove<S>>;
  return defineStateMachine({ name: spec.name, states: spec.states, initial: spec.initial, moves });
}

/** A job: drafted, sent for approval, open, on hold, closed; a closed job reopens or goes back to draft. */
export const jobMachine = statusMachine({
  name: 'job',
  states: JOB_STATUSES,
  initial: 'draft',
  event: 'core.ats.job.status_changed',
  moves: {
    submit: { from: ['draft'], to: 'approval' },
    open: { from: ['draft', 'approval', 'hold', 'closed'], to: 'open' },
    hold: { from: ['open'], to: 'hold' },
    close: { from: ['draft', 'approval', 'open', 'hold'], to: 'closed' },
    redraft: { from: ['approval', 'closed'], to: 'draft' },
  },
});

/** An application: the status operations of `PATCH …/status`, by name. Hired is final. */
export const applicationMachine = statusMachine({
  name: 'application',
  states: APPLICATION_STATUSES,
  initial: 'active',
  event: 'core.ats.application.status_changed',
  moves: {
    reject: { from: ['active', 'on_hold'], to: 'rejected' },
    hire: { from: ['active'], to: 'hired' },
    hold: { from: ['active'], to: 'on_hold' },
    withdraw: { from: ['active', 'on_hold'], to: 'withdrawn' },
    reopen: { from: ['rejected', 'withdrawn', 'on_hold'], to: 'active' },
  },
});

/** An offer: drafted, sent for approval, approved, sent; rescinded is final (draft a new one). */
export const offerMachine = statusMachine({
  name: 'offer',
  states: OFFER_STATUSES,
  initial: 'draft',
  event: 'core.ats.offer.status_changed',
  moves: {
    submit: { from: ['draft'], to: 'approval' },
    approve: { from: ['approval'], to: 'approved' },
    send: { from: ['approved'], to: 'sent' },
    redraft: { from: ['approval', 'approved'], to: 'draft' },
    rescind: { from: ['draft', 'approval', 'approved', 'sent'], to: 'rescinded' },
  },
});

/** An interview: requested until it has a time; scheduled (and moved) by hand or by the candidate's pick; cancelled for good. */
export const interviewMachine = defineStateMachine({
  name: 'interview',
  states: INTERVIEW_STATUSES,
  initial: 'requested',
  moves: {
    schedule: { from: ['requested', 'scheduled'], to: 'scheduled', event: 'core.ats.interview.scheduled' },
    cancel: { from: ['requested', 'scheduled'], to: 'cancelled', event: 'core.ats.interview.cancelled' },
  },
});

/** A scorecard: requested, then submitted by its evaluator or cancelled; a submitted one stays unchanged. */
export const scorecardMachine = defineStateMachine({
  name: 'scorecard',
  states: EVALUATION_STATUSES,
  initial: 'requested',
  moves: {
    submit: { from: ['requested'], to: 'submitted', event: 'core.ats.evaluation.submitted' },
    cancel: { from: ['requested'], to: 'cancelled', event: 'core.ats.evaluation.cancelled' },
  },
});

/** A careers embed: active until retired, for good. */
export const embedMachine = defineStateMachine({
  name: 'embed',
  states: EMBED_STATUSES,
  initial: 'active',
  moves: { retire: { from: ['active'], to: 'retired', event: 'core.ats.embed.retired' } },
});
