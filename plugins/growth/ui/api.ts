import { css, kit, type components } from '@wpk/ui';

export type Goal = components['schemas']['GrowthGoal'];
export type Cycle = components['schemas']['GrowthCycle'];
export type Review = components['schemas']['GrowthReview'];
export type Competency = components['schemas']['GrowthCompetency'];

/** A cycle's steps in order, and how each reads. */
export const CYCLE_STEPS = ['draft', 'self_review', 'peer_review', 'manager_review', 'calibration', 'released', 'closed'] as const;
export const STEP_LABELS: Record<string, string> = { draft: 'Draft', self_review: 'Self review', peer_review: 'Peer review', manager_review: 'Manager review', calibration: 'Calibration', released: 'Released', closed: 'Closed' };

/** The step after `status`, or null at the end. */
export const nextStep = (status: string): string | null => CYCLE_STEPS[CYCLE_STEPS.indexOf(status as (typeof CYCLE_STEPS)[number]) + 1] ?? null;

/** A score as people read it: one decimal, or a dash when none. */
export const scoreText = (score: number | null | undefined): string => (score === null || score === undefined ? '—' : score.toFixed(2).replace(/\.?0+$/, ''));

/** Every cycle, newest first. */
export async function allCycles(): Promise<Cycle[]> {
  const cycles: Cycle[] = [];
  for await (const cycle of kit().client.paginate('getGrowthCycles', { query: { per_page: 100 } })) cycles.push(cycle as Cycle);
  return cycles;
}

/** Every review of a cycle the caller may see. */
export async function reviewsOf(cycleId: string): Promise<Review[]> {
  const reviews: Review[] = [];
  for await (const review of kit().client.paginate('getGrowthReviews', { query: { cycle_id: cycleId, per_page: 100 } })) reviews.push(review as Review);
  return reviews;
}

export type Person = components['schemas']['GrowthPerson'];
export type OneOnOne = components['schemas']['GrowthOneOnOne'];
export type Praise = components['schemas']['GrowthPraise'];
export type FeedbackRequest = components['schemas']['GrowthFeedbackRequest'];

/** Cards, lists and tables of the screens. */
export const CARD_STYLES = css`
  ul.cards { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-3); }
  ul.cards > li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-2, 8px); padding: var(--wpk-space-3); overflow-wrap: anywhere; }
  .muted { color: var(--wpk-color-text-muted); }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 var(--wpk-space-3); margin: var(--wpk-space-2) 0; }
  dd { margin: 0; }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-top: var(--wpk-space-2); }
`;

/** Every worker Growth knows, by name (its copy of Workers). */
export async function allPeople(): Promise<Person[]> {
  const people: Person[] = [];
  for await (const person of kit().client.paginate('getGrowthPeople', { query: { per_page: 100 } })) people.push(person as Person);
  return people;
}

/** A member's name from the people Growth knows (the member id when none is linked). */
export const nameOfMember = (people: Person[], memberId: string): string => people.find((person) => person.member_id === memberId)?.name ?? memberId;
