/**
 * The Wands app's records for the route-table guards: an active wand with a manual and a webhook
 * trigger, one completed run of it, and the webhook's secret token, so every wands route has a
 * record of each workspace to name.
 */

/** What the Wands app seeds. */
export type WandsSeedKind = 'wands_wand' | 'wands_run' | 'wands_webhook_token';

/** Path parameters of the app's routes, by first path segment (`/wands/runs/{run_id}`). */
export const WANDS_PARAM_KINDS: Record<string, Record<string, WandsSeedKind>> = {
  wands: { wand_id: 'wands_wand', run_id: 'wands_run', token: 'wands_webhook_token' },
};

/** Body fields naming the app's records. */
export const WANDS_FIELD_KINDS: Record<string, WandsSeedKind> = { run_id: 'wands_run' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** Seeds Wands: installs it and makes an active wand, a run of it and its webhook's token. */
export async function seedWands(call: Call, marker: string): Promise<Record<WandsSeedKind, string>> {
  await call('POST', '/applications/wands/installations', {});
  const wand = await call('POST', '/wands', {
    name: `${marker} wand`,
    triggers: [{ type: 'manual' }, { type: 'webhook' }],
    steps: [{ type: 'transform', expression: `"${marker}"`, as: 'marker' }],
  });
  await call('POST', `/wands/${wand.id}/activate`, {});
  const run = (await call('POST', `/wands/${wand.id}/runs`, {})).id as string;
  return { wands_wand: wand.id, wands_run: run, wands_webhook_token: (wand.webhooks.t2 as string).split('/').pop()! };
}
