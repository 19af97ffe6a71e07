/**
 * The Growth app's records for the route-table guards: its copy of two workers (a manager who is
 * the owner, and their report; delivered as the broker would), a competency, a goal with a key
 * result, a cycle opened with the report's review and a peer nomination on it, and a 1:1 of the
 * owner with the seeded member, so every
 * growth route has a record of each workspace to name.
 */
import { randomUUID } from 'node:crypto';

/** What the Growth app seeds. */
export type GrowthSeedKind = 'growth_competency' | 'growth_goal' | 'growth_key_result' | 'growth_cycle' | 'growth_review' | 'growth_nomination' | 'growth_worker' | 'growth_one_on_one';

/** Path parameters of the app's routes, by first path segment (`/growth/goals/{goal_id}`). */
export const GROWTH_PARAM_KINDS: Record<string, Record<string, GrowthSeedKind>> = {
  growth: { competency_id: 'growth_competency', goal_id: 'growth_goal', cycle_id: 'growth_cycle', review_id: 'growth_review', nomination_id: 'growth_nomination', one_on_one_id: 'growth_one_on_one' },
};

/** Body fields naming the app's records. */
export const GROWTH_FIELD_KINDS: Record<string, GrowthSeedKind> = { competency_id: 'growth_competency', key_result_id: 'growth_key_result', peer_id: 'growth_worker' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;
/** Delivers one event to the growth app of the seeded workspace. */
type Deliver = (action: string, payload: Record<string, unknown>) => Promise<unknown>;

export async function seedGrowth(call: Call, deliver: Deliver, marker: string, ownerId: string, memberId: string): Promise<Record<GrowthSeedKind, string>> {
  await call('POST', '/applications/growth/installations', {});
  const slug = marker.toLowerCase().replace(/[^a-z0-9]/g, '');
  const worker = (id: string, name: string, extra: Record<string, unknown>) => ({ worker_id: id, mrn: `mrn:workers:worker:${id}`, name, work_email: `${name.split(' ').pop()}@${slug}.test`, status: 'active', revision: 1, ...extra });
  const manager = randomUUID();
  const report = randomUUID();
  await deliver('core.workers.worker.hired', worker(manager, `${marker} lead`, { member_id: ownerId }));
  await deliver('core.workers.worker.hired', worker(report, `${marker} report`, { manager_id: manager }));
  const competency = (await call('POST', '/growth/competencies', { name: `${marker} competency`, levels: ['One', 'Two'] })).id as string;
  const goal = await call('POST', '/growth/goals', { title: `${marker} goal`, owner_type: 'company', key_results: [{ title: `${marker} key result`, target: 10 }] });
  const cycle = (await call('POST', '/growth/cycles', { name: `${marker} cycle` })).id as string;
  await call('PATCH', `/growth/cycles/${cycle}`, { status: 'self_review' });
  const review = ((await call('GET', `/growth/reviews?cycle_id=${cycle}`)) as Array<{ id: string; worker_id: string }>).find((row) => row.worker_id === report)!.id;
  const nominated = await call('POST', `/growth/reviews/${review}/peers`, { peer_id: manager });
  const meeting = (await call('POST', '/growth/one-on-ones', { attendee_id: memberId, scheduled_on: '2099-01-05', agenda: [`${marker} agenda`], action_items: [{ text: `${marker} item` }] })).id as string;
  return { growth_competency: competency, growth_goal: goal.id, growth_key_result: goal.key_results[0].id, growth_cycle: cycle, growth_review: review, growth_nomination: nominated.peers[0].id, growth_worker: manager, growth_one_on_one: meeting };
}
