import type { BaseContext } from '../app/context.js';
import type { ModelMap, RowOf, ScopedModel } from '../app/models.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any of the app's contexts (request, subscription, service)
type AnyContext<M extends ModelMap> = BaseContext<M, any>;

/** What `keep` did: the row before the event (null when the record was not known) and whether the event was applied. */
export interface KeptCopy<A> {
  before: A | null;
  applied: boolean;
}

/**
 * An event-fed copy of another app's records. An app never reads another app's tables: it keeps
 * what it needs from the events, in a table of its own whose rows carry the source's id and
 * `revision`. `keep` brings a row to an event's state unless the row already holds that revision or
 * a later one, so a repeated, retried or late delivery changes nothing; concurrent deliveries about
 * one record wait for each other (a lock on the record for the transaction).
 *
 * ```ts
 * const workers = defineCopy<Models, 'workers'>({ model: 'workers' });
 * const { before, applied } = await workers.keep(ctx, payload.worker_id, payload.revision, { member_id: payload.member_id ?? null });
 * ```
 */
export interface Copy<M extends ModelMap, K extends keyof M & string> {
  keep(ctx: AnyContext<M>, id: string, revision: number, values: Partial<Omit<RowOf<M[K]>, 'id' | 'revision'>>): Promise<KeptCopy<RowOf<M[K]>>>;
}

/** A copy kept in `model`, whose rows have `id` (the source's) and `revision` (see `Copy`). */
export function defineCopy<M extends ModelMap, K extends keyof M & string>(spec: { model: K }): Copy<M, K> {
  type A = RowOf<M[K]> & { revision: number };
  return {
    async keep(ctx, id, revision, values) {
      const model = ctx.db[spec.model] as unknown as ScopedModel<A>;
      await ctx.lock(`copy:${spec.model}:${id}`);
      const before = (await model.findById(id)) as A | null;
      if (before && before.revision >= revision) return { before, applied: false };
      if (before) await model.update({ ...values, revision } as unknown as Partial<A>, { where: { id } as never });
      else await model.create({ ...values, id, revision } as unknown as Partial<A>);
      return { before, applied: true };
    },
  };
}
