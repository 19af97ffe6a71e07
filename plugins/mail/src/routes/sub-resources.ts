import { Joi, type AppRequest, type ChainStep, type JoiObjectSchema, type JoiSchema } from '@wpk/sdk';
import { route, type MailContext } from '../kit.js';
import { DELETED } from './answers.js';
import { deleted } from './schemas.js';


/** A record as a service's present function shows it. */
type Shown = object;

/**
 * A family of records that belong to one parent (an account's signatures, a mailbox's outbox
 * keys, a group's members), and the operations on them. Each `run` calls the services and returns
 * what it answers, presented; the family adds the paths, the validation of the ids, the envelope
 * and the declared `answers`.
 */
export interface SubResourceFamily {
  /** The family's path, with its parent's id as the one parameter: `/mail/accounts/{account_id}/signatures`. */
  path: string;
  /** The parameter naming one record of the family: `signature_id`. */
  item: string;
  /** The record every operation answers (but `create.answers` and `remove`). */
  record: JoiObjectSchema;
  /** `GET {path}`: the records of the parent, paged; `filters` are its query's own fields. */
  list?: { chain: ChainStep[]; description: string; filters?: Record<string, JoiSchema>; run(ctx: MailContext, parentId: string, query: Record<string, unknown>): Promise<{ rows: Shown[]; count: number }> };
  /** `POST {path}`: a new record; `linkSelf` answers its URL (by its `id`) as `links.self`; `answers` when it differs from `record`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body its Joi schema validated; each family's run names its own type
  create?: { chain: ChainStep[]; description: string; payload: JoiObjectSchema; answers?: JoiObjectSchema; linkSelf?: boolean; run(ctx: MailContext, parentId: string, payload: any): Promise<Shown> };
  /** `GET {path}/{item}`. */
  read?: { chain: ChainStep[]; description: string; run(ctx: MailContext, parentId: string, id: string): Promise<Shown> };
  /** `PUT` or `PATCH {path}/{item}`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body its Joi schema validated; each family's run names its own type
  update?: { method: 'PUT' | 'PATCH'; chain: ChainStep[]; description: string; payload: JoiObjectSchema; run(ctx: MailContext, parentId: string, id: string, payload: any): Promise<Shown> };
  /** `DELETE {path}/{item}`: answers `{id, deleted: true}`. */
  remove?: { chain: ChainStep[]; description: string; run(ctx: MailContext, parentId: string, id: string): Promise<unknown> };
}

/** A service's page of rows, presented. */
export function shown<Row>(page: { rows: Row[]; count: number }, present: (row: Row) => Shown): { rows: Shown[]; count: number } {
  return { rows: page.rows.map((row) => present(row)), count: page.count };
}

type Route = ReturnType<typeof route>;

/** The routes of a family, in the order list, create, read, update, remove (those it has). */
export function subResourceRoutes(family: SubResourceFamily): Route[] {
  const parents = [...family.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (parents.length !== 1) throw new Error(`subResourceRoutes: ${family.path} must name exactly one parent id parameter`);
  const parent = parents[0]!;
  const { path, item, record, list, create, read, update, remove } = family;
  const itemPath = `${path}/{${item}}`;
  const operation = (method: Route['method'], at: string, chain: ChainStep[], answers: Route['answers'], description: string, validate: Route['validate'], handler: Route['handler']) => route({ method, path: at, chain, answers, description, validate, handler });
  const ids = (request: AppRequest<unknown>) => [request.params[parent]!, request.params[item]!] as const;
  const routes = [
    list &&
      operation('GET', path, list.chain, { collection: record }, list.description, { params: Joi.idParams(parent), query: Joi.listQuery(list.filters) }, async (request, ctx) => {
        const { rows, count } = await list.run(ctx, ids(request)[0], request.query);
        return ctx.respond.collection(rows, count);
      }),
    create &&
      operation('POST', path, create.chain, { single: create.answers ?? record }, create.description, { params: Joi.idParams(parent), payload: create.payload }, async (request, ctx) => {
        const [parentId] = ids(request);
        const made = await create.run(ctx, parentId, request.payload);
        return create.linkSelf ? ctx.respond.single(made, { self: `${path.replace(`{${parent}}`, parentId)}/${(made as { id: string }).id}` }) : ctx.respond.single(made);
      }),
    read && operation('GET', itemPath, read.chain, { single: record }, read.description, { params: Joi.idParams(parent, item) }, async (request, ctx) => ctx.respond.single(await read.run(ctx, ...ids(request)))),
    update && operation(update.method, itemPath, update.chain, { single: record }, update.description, { params: Joi.idParams(parent, item), payload: update.payload }, async (request, ctx) => ctx.respond.single(await update.run(ctx, ...ids(request), request.payload))),
    remove &&
      operation('DELETE', itemPath, remove.chain, { single: DELETED }, remove.description, { params: Joi.idParams(parent, item) }, async (request, ctx) => {
        await remove.run(ctx, ...ids(request));
        return ctx.respond.single(deleted(ids(request)[1]));
      }),
  ];
  return routes.filter((defined): defined is Route => Boolean(defined));
}
