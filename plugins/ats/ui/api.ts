import { css, isApiError, kit, type components } from '@wpk/ui';

export type Job = components['schemas']['AtsJob'];
export type Pipeline = components['schemas']['AtsPipelineWithStages'];
export type Stage = components['schemas']['AtsStage'];
export type Application = components['schemas']['AtsApplication'];
export type ApplicationDetail = components['schemas']['AtsApplicationDetail'];
export type Candidate = components['schemas']['AtsCandidate'];
export type Interview = components['schemas']['AtsInterview'];
export type Evaluation = components['schemas']['AtsEvaluation'];
export type Offer = components['schemas']['AtsOffer'];

export const JOB_STATUS: Record<string, string> = { draft: 'Draft', approval: 'Waiting for approval', open: 'Open', hold: 'On hold', closed: 'Closed' };
export const APPLICATION_STATUS: Record<string, string> = { active: 'Active', rejected: 'Rejected', hired: 'Hired', on_hold: 'On hold', withdrawn: 'Withdrawn' };
export const INTERVIEW_STATUS: Record<string, string> = { requested: 'To be scheduled', scheduled: 'Scheduled', cancelled: 'Cancelled' };
export const SCORECARD_STATUS: Record<string, string> = { requested: 'Requested', submitted: 'Submitted', cancelled: 'Cancelled' };
export const OFFER_STATUS: Record<string, string> = { draft: 'Draft', approval: 'Waiting for approval', approved: 'Approved', sent: 'Sent', rescinded: 'Rescinded' };
export const RECOMMENDATIONS: Array<[string, string]> = [['strong_yes', 'Strong yes'], ['yes', 'Yes'], ['no', 'No'], ['strong_no', 'Strong no']];
export const RATINGS: Array<[number, string]> = [[4, '4 · Strong'], [3, '3 · Good'], [2, '2 · Weak'], [1, '1 · Poor']];
export const SOURCE: Record<string, string> = { applied: 'Applied', sourced: 'Sourced', referral: 'Referral', agency: 'Agency', careers_page: 'Careers page', internal: 'Internal', other: 'Other' };

/** The signed-in member's MRN (`mrn:account:member:{id}`), as scorecards and panels name members. */
export const myMrn = (): string => `mrn:account:member:${kit().member.id}`;

/** A read the member's keys may refuse: its answer, or null on 403 (the screen then leaves that part out). */
export async function readIfAllowed<T>(read: () => Promise<{ data: unknown }>): Promise<T | null> {
  try {
    return (await read()).data as T;
  } catch (error) {
    if (isApiError(error) && error.status === 403) return null;
    throw error;
  }
}

let held: Promise<Set<string>> | null = null;

/**
 * The member's own keys in the app (`GET /ats/me/permissions`, read once per page): the screens
 * offer only what these allow; the routes refuse the rest anyway. Without `ats.jobs.read` the
 * answer is 403 and the set is empty.
 */
export function myKeys(): Promise<Set<string>> {
  held ??= readIfAllowed<{ keys: string[] }>(() => kit().client.request('GET', '/ats/me/permissions') as Promise<{ data: unknown }>).then((answer) => new Set(answer?.keys ?? []));
  return held;
}

/** The candidates of some applications by id (one read each; a member without ats.candidates.read gets none). */
export async function candidatesOf(ids: string[]): Promise<Map<string, Candidate>> {
  const found = await Promise.all([...new Set(ids)].map((id) => readIfAllowed<Candidate>(() => kit().client.ats.getAtsCandidatesByCandidateId({ params: { candidate_id: id } }))));
  return new Map(found.filter((candidate): candidate is Candidate => candidate !== null).map((candidate) => [candidate.id, candidate]));
}

/** The lists' look. */
export const LIST_STYLES = css`
  ul.cards { list-style: none; padding: 0; margin: 0; display: grid; gap: var(--wpk-space-3); }
  ul.cards > li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-top: var(--wpk-space-2); }
  .meta { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
  .badge { display: inline-block; padding: 0 var(--wpk-space-2); border-radius: var(--wpk-radius-pill); background: var(--wpk-color-brand-quiet); color: var(--wpk-color-text); font-size: var(--wpk-font-size-s); }
  .overdue { color: var(--wpk-color-danger); font-weight: var(--wpk-font-weight-bold); }
  .cancelled { text-decoration: line-through; }
  form.fields { display: grid; gap: var(--wpk-space-1); max-width: 32rem; margin-top: var(--wpk-space-3); }
  form.fields label { font-weight: var(--wpk-font-weight-bold); margin-top: var(--wpk-space-2); }
  form.fields button { justify-self: start; margin-top: var(--wpk-space-3); }
  input, textarea { font: inherit; max-width: 100%; box-sizing: border-box; }
  dl { display: grid; grid-template-columns: minmax(6rem, max-content) 1fr; gap: var(--wpk-space-1) var(--wpk-space-3); margin: 0; }
  dt { color: var(--wpk-color-text-muted); }
  dd { margin: 0; overflow-wrap: anywhere; }
`;
