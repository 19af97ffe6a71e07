import type { FinanceBaseContext, FinanceEventContext } from '../kit.js';

/**
 * The workspace's base currency: the organisation's, as the Settings app last announced it
 * (`core.settings.organization.updated`), else finance's own setting `base_currency` (a workspace
 * without the Settings app, or before its first announcement).
 */
export async function baseCurrency(ctx: FinanceBaseContext): Promise<string> {
  const copy = await ctx.db.organizationCopy.findOne({ where: { source: 'settings' } });
  return copy?.base_currency ?? ctx.settings.base_currency;
}

/**
 * Keeps finance's copy of the organisation's base currency. Deliveries may come late, twice or out
 * of order: one with a revision no higher than the copy's changes nothing (`stale`).
 */
export async function followOrganization(ctx: FinanceEventContext, profile: { base_currency: string; revision: number }): Promise<'handled' | 'stale'> {
  await ctx.lock('organization-copy');
  const copy = await ctx.db.organizationCopy.findOne({ where: { source: 'settings' } });
  if (copy && copy.revision >= profile.revision) return 'stale';
  await ctx.db.organizationCopy.upsert({ source: 'settings', base_currency: profile.base_currency, revision: profile.revision }, { conflictFields: ['source'] });
  return 'handled';
}
