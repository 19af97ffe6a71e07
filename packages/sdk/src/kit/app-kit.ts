import type { AppContext, AppTypes, EventContext, UntypedApp } from '../app/context.js';
import type { AppCheck, SubscriptionHandler } from '../app/define-app.js';
import type { ModelMap } from '../app/models.js';
import type { AppPublicRoute, AppRoute } from '../app/routes.js';
import { defineResource, type Resource, type ResourceSpec } from './resource.js';

/** The declaration helpers of one app, typed once with its models and generated contract. */
export interface AppKit<M extends ModelMap, T extends AppTypes> {
  /** Declares a route: method, path, chain, validation, answers and handler, in one place. */
  route(route: AppRoute<M, T>): AppRoute<M, T>;
  /** Declares a public route (no credential, no caller; the manifest marks it `public: true`). */
  publicRoute(route: Omit<AppPublicRoute<M, T>, 'public'>): AppPublicRoute<M, T>;
  /** Declares a named check of the authorization chains (`{ check: name }`). */
  check(check: AppCheck<M>): AppCheck<M>;
  /** Declares the subscription handler of one action the app receives. */
  subscription<A extends keyof T['receives'] & string>(action: A, handler: SubscriptionHandler<M, T, A>): SubscriptionHandler<M, T, A>;
  /** Declares a common resource of the app (see defineResource). */
  resource<K extends keyof M & string>(spec: ResourceSpec<M, K>): Resource<M, K>;
}

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
 * export const { route, publicRoute, check, resource } = appKit<Models, AppTypes>();
 * export type Ctx = AppContext<Models, AppTypes>;
 * ```
 */
export function appKit<M extends ModelMap, T extends AppTypes = UntypedApp>(): AppKit<M, T> {
  return Object.freeze({
    route: (route: AppRoute<M, T>) => route,
    publicRoute: (route: Omit<AppPublicRoute<M, T>, 'public'>): AppPublicRoute<M, T> => ({ ...route, public: true }),
    check: (check: AppCheck<M>) => check,
    subscription: <A extends keyof T['receives'] & string>(_action: A, handler: SubscriptionHandler<M, T, A>) => handler,
    resource: <K extends keyof M & string>(spec: ResourceSpec<M, K>) => defineResource<M, K>(spec),
  });
}
