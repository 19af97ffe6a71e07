import { kit, type components } from '@wpk/ui';

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
