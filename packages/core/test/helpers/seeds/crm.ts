/**
 * The CRM app's records for the route-table guards: a pipeline with two stages, a product, a deal
 * with a product line, a quote of it, a lead and a web-to-lead form, so every crm route has a record of each
 * workspace to name.
 */

/** What the CRM app seeds. */
export type CrmSeedKind = 'crm_pipeline' | 'crm_stage' | 'crm_product' | 'crm_deal' | 'crm_quote' | 'crm_lead' | 'crm_lead_form' | 'crm_lead_form_token';

/** Path parameters of the app's routes, by first path segment (`/crm/deals/{deal_id}`). */
export const CRM_PARAM_KINDS: Record<string, Record<string, CrmSeedKind>> = {
  crm: { pipeline_id: 'crm_pipeline', product_id: 'crm_product', deal_id: 'crm_deal', quote_id: 'crm_quote', lead_id: 'crm_lead', form_id: 'crm_lead_form', token: 'crm_lead_form_token' },
};

/** Body fields naming the app's records. */
export const CRM_FIELD_KINDS: Record<string, CrmSeedKind> = { product_id: 'crm_product', deal_id: 'crm_deal', quote_id: 'crm_quote', lead_id: 'crm_lead' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** Seeds CRM: installed, then one of each record, every name carrying the marker. */
export async function seedCrm(call: Call, marker: string): Promise<Record<CrmSeedKind, string>> {
  await call('POST', '/applications/crm/installations', {});
  const pipeline = await call('POST', '/crm/pipelines', { name: `${marker} pipeline`, stages: [{ name: `${marker} open`, probability: 20, sla_days: 5 }, { name: `${marker} later`, probability: 60 }] });
  const product = (await call('POST', '/crm/products', { name: `${marker} product`, sku: `${marker}-sku`.slice(0, 100), unit_price: '10.00', currency: 'EUR', prices: [{ price_list: 'Partner', unit_price: '8.00' }] })).id as string;
  const deal = (await call('POST', '/crm/deals', { title: `${marker} deal`, pipeline_id: pipeline.id, close_date: '2099-01-15', lines: [{ product_id: product, quantity: '2' }] })).id as string;
  const quote = (await call('POST', `/crm/deals/${deal}/quotes`, { notes: `${marker} quote` })).id as string;
  const lead = (await call('POST', '/crm/leads', { name: `${marker} lead`, email: `lead@${marker}.test`, company_name: `${marker} company` })).id as string;
  const form = await call('POST', '/crm/lead-forms', { name: `${marker} form` });
  return { crm_pipeline: pipeline.id, crm_stage: pipeline.stages[1].id, crm_product: product, crm_deal: deal, crm_quote: quote, crm_lead: lead, crm_lead_form: form.id, crm_lead_form_token: form.token };
}
