import { ConflictError, formatMrn, InvalidError, likePattern, NotFoundError, Op, type SearchDocument } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { ListPrice, Product } from '../models/index.js';
import { money } from './money.js';

export interface ProductInput {
  name?: string;
  sku?: string | null;
  description?: string;
  unit_price?: string;
  currency?: string;
  prices?: ListPrice[];
  active?: boolean;
}

/** `mrn:crm:product:{id}`: what Finance's bill items name in `product_mrn`. */
export const productMrn = (id: string): string => formatMrn('crm', 'product', id);

export function presentProduct(product: Product) {
  return {
    id: product.id,
    mrn: productMrn(product.id),
    name: product.name,
    sku: product.sku,
    description: product.description,
    unit_price: money(product.unit_price),
    currency: product.currency,
    prices: product.prices.map((price) => ({ price_list: price.price_list, unit_price: money(price.unit_price) })),
    active: product.active,
    revision: product.revision,
    created_at: product.created_at,
    updated_at: product.updated_at,
  };
}

export async function requireProduct(ctx: AnyCtx, productId: string, lock?: 'update'): Promise<Product> {
  const product = await ctx.db.products.findById(productId, lock ? { lock } : {});
  if (!product) throw new NotFoundError(`Product ${productId} not found`);
  return product;
}

/** Products by name; `q` matches name or SKU; `active` filters. */
export function listProducts(ctx: Ctx, query: { q?: string; active?: boolean }) {
  const where: Record<PropertyKey, unknown> = {};
  if (query.active !== undefined) where.active = query.active;
  if (query.q) where[Op.or] = [{ name: { [Op.iLike]: likePattern(query.q) } }, { sku: { [Op.iLike]: likePattern(query.q) } }];
  return ctx.db.products.findAndCountAll({ where, order: [['name', 'ASC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

function checkPrices(prices: ListPrice[]): ListPrice[] {
  const seen = new Set<string>();
  return prices.map((price, index) => {
    const name = price.price_list.trim();
    if (seen.has(name.toLowerCase())) throw new InvalidError(`prices[${index}].price_list: ${name} is named twice`, { field: `prices.${index}.price_list` });
    seen.add(name.toLowerCase());
    return { price_list: name, unit_price: money(price.unit_price) };
  });
}

async function assertSkuFree(ctx: AnyCtx, sku: string | null, exceptId: string | null): Promise<void> {
  if (!sku) return;
  await ctx.lock(`product-sku:${sku.toLowerCase()}`);
  const clash = await ctx.db.products.findOne({ where: { sku: { [Op.iLike]: likePattern(sku, 'exact') } } });
  if (clash && clash.id !== exceptId && clash.sku?.toLowerCase() === sku.toLowerCase()) throw new ConflictError(`Product ${clash.id} already has the SKU ${clash.sku}`, { field: 'sku' });
}

function productEvent(product: Product) {
  return { product_id: product.id, product_mrn: productMrn(product.id), name: product.name, ...(product.sku ? { sku: product.sku } : {}), unit_price: money(product.unit_price), currency: product.currency, active: product.active, revision: product.revision };
}

export async function createProduct(ctx: Ctx, input: ProductInput & { name: string; unit_price: string; currency: string }): Promise<Product> {
  const sku = input.sku?.trim() || null;
  await assertSkuFree(ctx, sku, null);
  const product = await ctx.db.products.create({
    name: input.name.trim(), sku, description: input.description ?? '', unit_price: money(input.unit_price), currency: input.currency,
    prices: checkPrices(input.prices ?? []), active: input.active ?? true, revision: 1,
  });
  ctx.search.upsert(productDocument(product));
  ctx.events.stage('core.crm.product.created', { ...productEvent(product), created_by: ctx.member.mrn });
  return product;
}

/** Changes the given fields; `product.updated` names them (nothing changed: no write, no event). */
export async function updateProduct(ctx: Ctx, productId: string, input: ProductInput): Promise<Product> {
  const product = await requireProduct(ctx, productId, 'update');
  const changes: Partial<Product> = {};
  if (input.name !== undefined && input.name.trim() !== product.name) changes.name = input.name.trim();
  if (input.sku !== undefined && (input.sku?.trim() || null) !== product.sku) {
    changes.sku = input.sku?.trim() || null;
    await assertSkuFree(ctx, changes.sku, product.id);
  }
  if (input.description !== undefined && input.description !== product.description) changes.description = input.description;
  if (input.unit_price !== undefined && money(input.unit_price) !== money(product.unit_price)) changes.unit_price = money(input.unit_price);
  if (input.currency !== undefined && input.currency !== product.currency) changes.currency = input.currency;
  if (input.prices !== undefined) {
    const prices = checkPrices(input.prices);
    if (JSON.stringify(prices) !== JSON.stringify(product.prices.map((price) => ({ price_list: price.price_list, unit_price: money(price.unit_price) })))) changes.prices = prices;
  }
  if (input.active !== undefined && input.active !== product.active) changes.active = input.active;
  const changed = Object.keys(changes);
  if (!changed.length) return product;
  await ctx.db.products.update({ ...changes, revision: product.revision + 1 }, { where: { id: product.id } });
  const row = (await ctx.db.products.findById(product.id))!;
  ctx.search.upsert(productDocument(row));
  ctx.events.stage('core.crm.product.updated', { ...productEvent(row), changed_fields: changed, updated_by: ctx.member.mrn });
  return row;
}

/** Deletes a product no deal line names (a used one is made inactive instead). */
export async function deleteProduct(ctx: Ctx, productId: string) {
  const product = await requireProduct(ctx, productId, 'update');
  const used = await ctx.db.dealLines.count({ where: { product_id: product.id } });
  if (used) throw new ConflictError(`Product ${product.id} (${product.name}) is on ${used} deal line${used === 1 ? '' : 's'}: make it inactive instead`);
  await ctx.db.products.destroy({ where: { id: product.id } });
  ctx.search.remove('product', product.id);
  return { id: product.id, deleted: true as const };
}

/** The unit price of a product in a price list (none: its list price). */
export function priceOf(product: Product, priceList: string | undefined, field: string): string {
  if (!priceList) return money(product.unit_price);
  const price = product.prices.find((row) => row.price_list.toLowerCase() === priceList.toLowerCase());
  if (!price) throw new InvalidError(`${field}: product ${product.id} (${product.name}) has no price in the price list ${priceList}`, { field });
  return money(price.unit_price);
}

export function productDocument(product: Product): SearchDocument {
  return {
    type: 'product', id: product.id, title: product.name,
    subtitle: `${product.sku ? `${product.sku} · ` : ''}${money(product.unit_price)} ${product.currency}${product.active ? '' : ' · inactive'}`,
    url: `/products/${product.id}`, names: [product.name, ...(product.sku ? [product.sku] : [])], details: product.description ? [product.description] : [], filters: {},
  };
}
