import type { AppContext, AppTypes, EventContext, UntypedApp } from '../app/context.js';
import type { AppCheck, SubscriptionHandler } from '../app/define-app.js';
import type { ModelMap } from '../app/models.js';
import type { AppPublicRoute, AppRoute } from '../app/routes.js';
import { isUuid } from '../input/ids.js';
import { defineResource, type Resource, type ResourceSpec } from './resource.js';
import { routeFamily, type RouteFamily, type RouteFamilySpec } from './route-family.js';

/** The declaration helpers of one app, typed once with its models and generated contract. */
export interface AppKit<M extends ModelMap, T extends AppTypes> {
  /** Declares a route: method, path, chain, validation, answers and handler, in one place. */
  route(route: AppRoute<M, T>): AppRoute<M, T>;
  /** Declares the routes of one resource path once: shared params, record, presenter and links; per route what differs (see routeFamily). */
  routeFamily<R = unknown>(path: string, spec?: RouteFamilySpec<M, T, R>): RouteFamily<M, T, R>;
  /** Declares a public route (no credential, no caller; the manifest marks it `public: true`). */
  publicRoute(route: Omit<AppPublicRoute<M, T>, 'public'>): AppPublicRoute<M, T>;
  /** Declares a named check of the authorization chains (`{ check: name }`). */
  check(check: AppCheck<M>): AppCheck<M>;
  /** Declares the subscription handler of one action the app receives. */
  subscription<A extends keyof T['receives'] & string>(action: A, handler: SubscriptionHandler<M, T, A>): SubscriptionHandler<M, T, A>;
  /** Declares a common resource of the app (see defineResource). */
  resource<K extends keyof M & string>(spec: ResourceSpec<M, K>): Resource<M, K>;
  /**
   * The handler of `core.account.member.removed` (the app must receive it): checks the payload's
   * `member_id` (not a UUID: logged as a warning and acknowledged, since a retry would not fix it)
   * and calls `handle` with it lower-cased, and `removed_by` (a UUID, or null).
   */
  memberRemoved(handle: (ctx: EventContext<M, T>, removal: MemberRemoval) => unknown): SubscriptionHandler<M, T, MemberRemovedAction<T>>;
}

/** What `memberRemoved` hands its handler. */
export interface MemberRemoval {
  /** The member who left, lower-case. */
  memberId: string;
  /** Who removed them (a UUID), or null. */
  removedBy: string | null;
}

/** The platform's member-removal action, where the app receives it. */
type MemberRemovedAction<T extends AppTypes> = 'core.account.member.removed' & keyof T['receives'];

/** The context types of an app, for its services' signatures. */
export interface AppContexts<M extends ModelMap, T extends AppTypes> {
  /** A route handler's context. */
  request: AppContext<M, T>;
  /** A subscription handler's (or service's) context: no caller. */
  event: EventContext<M, T>;
}

/**
 * The app's declaration helpers, bound once to its models and generated types (`src/kit.ts`):
 *
 * ```ts
 * export const { route, routeFamily, publicRoute, check, resource } = appKit<Models, AppTypes>();
 * export type Ctx = AppContext<Models, AppTypes>;
 * ```
 */
export function appKit<M extends ModelMap, T extends AppTypes = UntypedApp>(): AppKit<M, T> {
  return Object.freeze({
    route: (route: AppRoute<M, T>) => route,
    routeFamily: <R = unknown>(path: string, spec?: RouteFamilySpec<M, T, R>) => routeFamily<M, T, R>(path, spec),
    publicRoute: (route: Omit<AppPublicRoute<M, T>, 'public'>): AppPublicRoute<M, T> => ({ ...route, public: true }),
    check: (check: AppCheck<M>) => check,
    subscription: <A extends keyof T['receives'] & string>(_action: A, handler: SubscriptionHandler<M, T, A>) => handler,
    resource: <K extends keyof M & string>(spec: ResourceSpec<M, K>) => defineResource<M, K>(spec),
    memberRemoved: (handle: (ctx: EventContext<M, T>, removal: MemberRemoval) => unknown): SubscriptionHandler<M, T, MemberRemovedAction<T>> => async (event, ctx) => {
      // Typed by the platform catalog; still checked, since a replayed or hand-made delivery may not be.
      const payload = event.payload as { member_id?: unknown; removed_by?: unknown };
      const memberId = payload.member_id;
      if (typeof memberId !== 'string' || !isUuid(memberId)) {
        ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'member.removed without a usable member_id: ignored');
        return;
      }
      const removedBy = typeof payload.removed_by === 'string' && isUuid(payload.removed_by) ? payload.removed_by.toLowerCase() : null;
      await handle(ctx, { memberId: memberId.toLowerCase(), removedBy });
    },
  });
}
