import { ConflictError, formatMrn, InvalidError, likePattern, NotFoundError, Op, type SearchDocument } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Deal, DealLine, DealStatus, Stage } from '../models/index.js';
import { dealMachine } from './machines.js';
import { cents, dec, money, quantityText, total } from './money.js';
import { defaultPipeline, requirePipeline, stagesOf } from './pipelines.js';
import { priceOf, productMrn } from './products.js';

/** A line as a create or an update names it. */
export interface LineInput {
  product_id?: string;
  description?: string;
  quantity: string;
  unit_price?: string;
  price_list?: string;
}

export interface DealInput {
  title?: string;
  pipeline_id?: string;
  stage_id?: string;
  amount?: string;
  currency?: string;
  close_date?: string | null;
  company_mrn?: string | null;
  contact_mrn?: string | null;
  owner_id?: string | null;
  next_step?: string | null;
  next_step_due?: string | null;
  lines?: LineInput[];
  status?: DealStatus;
  lost_reason?: string;
}

export const dealMrn = (id: string): string => formatMrn('crm', 'deal', id);

export const presentLine = (line: DealLine) => ({
  id: line.id,
  product_id: line.product_id,
  product_mrn: line.product_id ? productMrn(line.product_id) : null,
  description: line.description,
  quantity: quantityText(line.quantity),
  unit_price: money(line.unit_price),
  amount: money(line.amount),
});

/** Whether an open deal has stayed in its stage longer than the stage's SLA days. */
export function isOverdue(deal: Deal, stage: Stage | undefined, now: Date): boolean {
  if (deal.status !== 'open' || !stage?.sla_days) return false;
  return now.getTime() - new Date(deal.stage_entered_at).getTime() > stage.sla_days * 86_400_000;
}

/** Deals as answered: their lines, stage name and probability, and whether the stage's SLA is passed. */
export async function presentDeals(ctx: AnyCtx, deals: Deal[]) {
  if (!deals.length) return [];
  const ids = deals.map((deal) => deal.id);
  const lines = await ctx.db.dealLines.findAll({ where: { deal_id: ids }, order: [['position', 'ASC']] });
  const stages = new Map((await ctx.db.stages.findAll({ where: { id: [...new Set(deals.map((deal) => deal.stage_id))] } })).map((stage) => [stage.id, stage]));
  const now = ctx.now();
  return deals.map((deal) => {
    const stage = stages.get(deal.stage_id);
    return {
      id: deal.id,
      mrn: dealMrn(deal.id),
      title: deal.title,
      pipeline_id: deal.pipeline_id,
      stage_id: deal.stage_id,
      stage_name: stage?.name ?? null,
      probability: stage?.probability ?? 0,
      status: deal.status,
      amount: money(deal.amount),
      currency: deal.currency,
      close_date: deal.close_date,
      company_mrn: deal.company_mrn,
      contact_mrn: deal.contact_mrn,
      owner_id: deal.owner_id,
      lost_reason: deal.lost_reason,
      lead_id: deal.lead_id,
      stage_entered_at: deal.stage_entered_at,
      overdue: isOverdue(deal, stage, now),
      next_step: deal.next_step,
      next_step_due: deal.next_step_due,
      next_step_overdue: deal.status === 'open' && deal.next_step_due !== null && deal.next_step_due < now.toISOString().slice(0, 10),
      closed_at: deal.closed_at,
      lines: lines.filter((line) => line.deal_id === deal.id).map(presentLine),
      revision: deal.revision,
      created_at: deal.created_at,
      updated_at: deal.updated_at,
    };
  });
}

export async function requireDeal(ctx: AnyCtx, dealId: string, lock?: 'update'): Promise<Deal> {
  const deal = await ctx.db.deals.findById(dealId, lock ? { lock } : {});
  if (!deal) throw new NotFoundError(`Deal ${dealId} not found`);
  return deal;
}

/** Deals, most recently changed first, by pipeline, stage, status, owner, company, contact or `q` in the title. */
export function listDeals(ctx: Ctx, query: { pipeline_id?: string; stage_id?: string; status?: DealStatus; owner_id?: string; company_mrn?: string; contact_mrn?: string; q?: string }) {
  const where: Record<PropertyKey, unknown> = {};
  for (const key of ['pipeline_id', 'stage_id', 'status', 'owner_id', 'company_mrn', 'contact_mrn'] as const) if (query[key] !== undefined) where[key] = query[key];
  if (query.q) where.title = { [Op.iLike]: likePattern(query.q) };
  return ctx.db.deals.findAndCountAll({ where, order: [['updated_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** The stage a deal goes to: the one named (of the pipeline), else the pipeline's first. */
async function stageFor(ctx: AnyCtx, pipelineId: string, stageId: string | undefined): Promise<Stage> {
  const stages = await stagesOf(ctx, pipelineId);
  if (stageId !== undefined) {
    const stage = stages.find((row) => row.id === stageId.toLowerCase());
    if (!stage) throw new InvalidError(`stage_id: ${stageId} is not a stage of pipeline ${pipelineId}`, { field: 'stage_id' });
    return stage;
  }
  if (!stages.length) throw new ConflictError(`Pipeline ${pipelineId} has no stage: add one first`, { field: 'pipeline_id' });
  return stages[0];
}

/** The lines priced: a product's price (in a price list) unless a unit price is given; the product's currency must be the deal's. */
async function priceLines(ctx: AnyCtx, lines: LineInput[], currency: string) {
  const priced = [];
  for (const [index, line] of lines.entries()) {
    let description = line.description?.trim();
    let unitPrice = line.unit_price;
    let productId: string | null = null;
    if (line.product_id !== undefined) {
      const product = await ctx.db.products.findById(line.product_id);
      if (!product) throw new InvalidError(`lines[${index}].product_id: ${line.product_id} is not a product of this workspace`, { field: `lines.${index}.product_id` });
      productId = product.id;
      description ||= product.name;
      if (unitPrice === undefined) {
        if (product.currency !== currency) throw new InvalidError(`lines[${index}].unit_price: product ${product.id} is priced in ${product.currency}, the deal in ${currency}: give the unit price`, { field: `lines.${index}.unit_price` });
        unitPrice = priceOf(product, line.price_list, `lines.${index}.price_list`);
      }
    } else if (line.price_list !== undefined) throw new InvalidError(`lines[${index}].price_list: a price list needs a product_id`, { field: `lines.${index}.price_list` });
    if (!description) throw new InvalidError(`lines[${index}].description: a line without a product needs a description`, { field: `lines.${index}.description` });
    if (unitPrice === undefined) throw new InvalidError(`lines[${index}].unit_price: a line without a product needs a unit price`, { field: `lines.${index}.unit_price` });
    const amount = cents(dec(line.quantity).times(dec(unitPrice)));
    if (dec(amount).greaterThanOrEqualTo('1e16')) throw new InvalidError(`lines[${index}]: the amount ${amount} is too large`, { field: `lines.${index}.quantity` });
    priced.push({ position: index, product_id: productId, description: description.slice(0, 500), quantity: dec(line.quantity).toFixed(4), unit_price: money(unitPrice), amount });
  }
  return priced;
}

/** The deal's amount: the sum of its lines when it has any (a different amount given is refused), else the amount given. */
function amountOf(lines: Array<{ amount: string }> | undefined, given: string | undefined, fallback: string): string {
  if (lines && lines.length) {
    const sum = cents(total(lines.map((line) => line.amount)));
    if (given !== undefined && money(given) !== sum) throw new InvalidError(`amount: ${money(given)} is not the sum of the lines (${sum}); leave it out`, { field: 'amount' });
    if (dec(sum).greaterThanOrEqualTo('1e16')) throw new InvalidError(`lines: the sum ${sum} is too large`, { field: 'lines' });
    return sum;
  }
  return given !== undefined ? money(given) : fallback;
}

function dealEvent(deal: Deal) {
  return {
    deal_id: deal.id, deal_mrn: dealMrn(deal.id), title: deal.title, pipeline_id: deal.pipeline_id, stage_id: deal.stage_id,
    amount: money(deal.amount), currency: deal.currency,
    company_mrn: deal.company_mrn, contact_mrn: deal.contact_mrn, owner_mrn: deal.owner_id ? formatMrn('account', 'member', deal.owner_id) : null,
  };
}

/** Adds a deal (to the default pipeline's first stage unless named). */
export async function createDeal(ctx: AnyCtx, input: DealInput & { title: string }, by: { id: string; mrn: string } | null, leadId: string | null = null): Promise<Deal> {
  const pipeline = input.pipeline_id !== undefined ? await requirePipeline(ctx, input.pipeline_id).catch(() => {
    throw new InvalidError(`pipeline_id: ${input.pipeline_id} is not a pipeline of this workspace`, { field: 'pipeline_id' });
  }) : await defaultPipeline(ctx);
  const stage = await stageFor(ctx, pipeline.id, input.stage_id);
  const currency = input.currency ?? (ctx.settings as { currency: string }).currency;
  const lines = input.lines ? await priceLines(ctx, input.lines, currency) : [];
  const deal = await ctx.db.deals.create({
    title: input.title.trim(), pipeline_id: pipeline.id, stage_id: stage.id, status: 'open', amount: amountOf(lines, input.amount, '0.00'), currency,
    close_date: input.close_date ?? null, company_mrn: input.company_mrn ?? null, contact_mrn: input.contact_mrn ?? null, owner_id: input.owner_id ?? by?.id ?? null,
    lost_reason: null, lead_id: leadId, stage_entered_at: ctx.now(), closed_at: null, revision: 1, created_by: by?.id ?? null,
    next_step: input.next_step?.trim() || null, next_step_due: input.next_step_due ?? null,
  });
  for (const line of lines) await ctx.db.dealLines.create({ deal_id: deal.id, ...line });
  ctx.search.upsert(dealDocument(deal, stage));
  ctx.events.stage('core.crm.deal.created', { ...dealEvent(deal), ...(by ? { created_by: by.mrn } : {}), ...(leadId ? { lead_id: leadId } : {}) });
  return deal;
}

/** What `deal.won` carries: the deal and its lines (for Finance's bill items). */
export async function wonPayload(ctx: AnyCtx, deal: Deal, extra: { won_by?: string; quote_id?: string }) {
  const lines = await ctx.db.dealLines.findAll({ where: { deal_id: deal.id }, order: [['position', 'ASC']] });
  return {
    ...dealEvent(deal),
    lines: lines.map((line) => ({ ...(line.product_id ? { product_id: line.product_id, product_mrn: productMrn(line.product_id) } : {}), description: line.description, quantity: quantityText(line.quantity), unit_price: money(line.unit_price), amount: money(line.amount) })),
    ...extra,
  };
}

/** Moves a deal's status: won (deal.won with its lines), lost (a reason; deal.lost) or reopened. */
export async function setDealStatus(ctx: AnyCtx, deal: Deal, target: DealStatus, lostReason: string | undefined, by: string | null, quoteId?: string): Promise<Deal> {
  const move = dealMachine.moveTo(deal.status, target);
  if (move.to === 'lost' && !lostReason?.trim()) throw new InvalidError('lost_reason: a lost deal needs a reason', { field: 'lost_reason' });
  const closing = move.to !== 'open';
  await ctx.db.deals.update({ status: move.to, lost_reason: move.to === 'lost' ? lostReason!.trim() : null, closed_at: closing ? ctx.now() : null, revision: deal.revision + 1 }, { where: { id: deal.id } });
  const row = (await ctx.db.deals.findById(deal.id))!;
  if (move.to === 'won') ctx.events.stage('core.crm.deal.won', await wonPayload(ctx, row, { ...(by ? { won_by: by } : {}), ...(quoteId ? { quote_id: quoteId } : {}) }));
  if (move.to === 'lost') ctx.events.stage('core.crm.deal.lost', { ...dealEvent(row), lost_reason: row.lost_reason!, ...(by ? { lost_by: by } : {}) });
  return row;
}

/** Changes the given fields of a deal; its lines are replaced when given (only while it is open). */
export async function updateDeal(ctx: Ctx, dealId: string, input: DealInput): Promise<Deal> {
  let deal = await requireDeal(ctx, dealId, 'update');
  if (input.status === undefined && input.lost_reason !== undefined) throw new InvalidError('lost_reason: give it with "status": "lost"', { field: 'lost_reason' });
  const editing = ['title', 'amount', 'currency', 'close_date', 'company_mrn', 'contact_mrn', 'owner_id', 'next_step', 'next_step_due', 'lines'].filter((key) => input[key as keyof DealInput] !== undefined);
  const money_ = ['amount', 'currency', 'lines'].filter((key) => editing.includes(key));
  const statusFirst = input.status === 'open';
  if (statusFirst && input.status !== undefined) deal = await setDealStatus(ctx, deal, 'open', undefined, ctx.member.mrn);
  if (money_.length && deal.status !== 'open') throw new ConflictError(`Deal ${deal.id} is ${deal.status}: reopen it to change its ${money_.join(', ')}`);
  const changes: Partial<Deal> = {};
  if (input.title !== undefined && input.title.trim() !== deal.title) changes.title = input.title.trim();
  for (const key of ['close_date', 'company_mrn', 'contact_mrn', 'owner_id', 'next_step_due'] as const) if (input[key] !== undefined && input[key] !== deal[key]) Object.assign(changes, { [key]: input[key] });
  if (input.next_step !== undefined && (input.next_step?.trim() || null) !== deal.next_step) changes.next_step = input.next_step?.trim() || null;
  const currency = input.currency ?? deal.currency;
  if (currency !== deal.currency) changes.currency = currency;
  let lines: Awaited<ReturnType<typeof priceLines>> | undefined;
  if (input.lines !== undefined) lines = await priceLines(ctx, input.lines, currency);
  else if (input.amount !== undefined || changes.currency) {
    const existing = await ctx.db.dealLines.findAll({ where: { deal_id: deal.id } });
    if (existing.length && input.amount !== undefined) throw new InvalidError('amount: the deal has lines, its amount is their sum; change the lines', { field: 'amount' });
    if (existing.length && changes.currency) throw new InvalidError('currency: the deal has lines priced in its currency; give the lines again with the new currency', { field: 'currency' });
  }
  const amount = lines !== undefined ? amountOf(lines, input.amount, '0.00') : input.amount !== undefined ? money(input.amount) : money(deal.amount);
  if (amount !== money(deal.amount)) changes.amount = amount;
  if (lines !== undefined) {
    await ctx.db.dealLines.destroy({ where: { deal_id: deal.id } });
    for (const line of lines) await ctx.db.dealLines.create({ deal_id: deal.id, ...line });
  }
  if (Object.keys(changes).length || lines !== undefined) {
    await ctx.db.deals.update({ ...changes, revision: deal.revision + 1 }, { where: { id: deal.id } });
    deal = (await ctx.db.deals.findById(deal.id))!;
  }
  if (input.status !== undefined && !statusFirst) deal = await setDealStatus(ctx, deal, input.status, input.lost_reason, ctx.member.mrn);
  const stage = await ctx.db.stages.findById(deal.stage_id);
  ctx.search.upsert(dealDocument(deal, stage ?? undefined));
  return deal;
}

/** Moves an open deal to another stage (of its pipeline or another one); `deal.stage_changed` says from where to where. */
export async function moveDeal(ctx: Ctx, dealId: string, stageId: string): Promise<Deal> {
  const deal = await requireDeal(ctx, dealId, 'update');
  const stage = await ctx.db.stages.findById(stageId);
  if (!stage) throw new InvalidError(`stage_id: ${stageId} is not a stage of this workspace`, { field: 'stage_id' });
  if (deal.status !== 'open') throw new ConflictError(`Deal ${deal.id} is ${deal.status}: reopen it before moving it`);
  if (stage.id === deal.stage_id) return deal;
  await ctx.db.deals.update({ stage_id: stage.id, pipeline_id: stage.pipeline_id, stage_entered_at: ctx.now(), revision: deal.revision + 1 }, { where: { id: deal.id } });
  const row = (await ctx.db.deals.findById(deal.id))!;
  ctx.search.upsert(dealDocument(row, stage));
  ctx.events.stage('core.crm.deal.stage_changed', {
    deal_id: deal.id, deal_mrn: dealMrn(deal.id), title: deal.title, from_pipeline_id: deal.pipeline_id, from_stage_id: deal.stage_id, pipeline_id: stage.pipeline_id, stage_id: stage.id,
    stage_name: stage.name, probability: stage.probability, amount: money(row.amount), currency: row.currency, moved_by: ctx.member.mrn,
  });
  return row;
}

/** Deletes a deal with its lines and quotes; a lead it came from forgets it. */
export async function deleteDeal(ctx: Ctx, dealId: string) {
  const deal = await requireDeal(ctx, dealId, 'update');
  await ctx.db.leads.update({ deal_id: null }, { where: { deal_id: deal.id } });
  await ctx.db.quotes.destroy({ where: { deal_id: deal.id } });
  await ctx.db.dealLines.destroy({ where: { deal_id: deal.id } });
  await ctx.db.deals.destroy({ where: { id: deal.id } });
  ctx.search.remove('deal', deal.id);
  return { id: deal.id, deleted: true as const };
}

export function dealDocument(deal: Deal, stage?: Stage): SearchDocument {
  return {
    type: 'deal', id: deal.id, title: deal.title,
    subtitle: `${money(deal.amount)} ${deal.currency} · ${deal.status === 'open' ? (stage?.name ?? 'open') : deal.status}`,
    url: `/deals/${deal.id}`, names: [deal.title], details: [], filters: { status: deal.status },
  };
}

/** One pipeline's board: its stages in order, each with its open deals, their count and sum per currency. */
export async function boardOf(ctx: AnyCtx, pipelineId: string) {
  const pipeline = await requirePipeline(ctx, pipelineId);
  const stages = await stagesOf(ctx, pipeline.id);
  const deals = await ctx.db.deals.findAll({ where: { pipeline_id: pipeline.id, status: 'open' }, order: [['stage_entered_at', 'ASC'], ['id', 'ASC']] });
  const presented = await presentDeals(ctx, deals);
  return {
    pipeline_id: pipeline.id,
    name: pipeline.name,
    stages: stages.map((stage) => {
      const own = presented.filter((deal) => deal.stage_id === stage.id);
      const currencies = [...new Set(own.map((deal) => deal.currency))].sort();
      return {
        id: stage.id, name: stage.name, position: stage.position, probability: stage.probability, sla_days: stage.sla_days,
        count: own.length,
        totals: currencies.map((currency) => ({ currency, amount: cents(total(own.filter((deal) => deal.currency === currency).map((deal) => deal.amount))) })),
        deals: own,
      };
    }),
  };
}
