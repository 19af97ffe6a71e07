import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { Sequelize, Transaction } from 'sequelize';
import type { Logger } from 'pino';
import { classifyHandlerError, parseDelivery, RetryDeliveryError, SIGNATURE_HEADER, verifySignature, type ParsedDelivery, type StageOptions } from '@wpk/sdk';
import { runInRequestTransaction, type RequestWork } from '../../server/index.js';
import type { Workspace, WorkspaceService } from '../../tenancy/index.js';
import { localHandlerPath } from '../deliverer.js';
import { EventRegistrationError, type EventRegistry } from '../registry.js';
import { signingSecretFor } from '../secrets.js';
import type { EventSink } from '../sink.js';
import { stageEvent } from '../stage.js';

/** What a subscription handler's context is built from. */
export interface DeliveryContextInput {
  /** The subscriber's slug. */
  app: string;
  /** The event's workspace (loaded from `metadata.workspace_id`). */
  workspace: Workspace;
  delivery: ParsedDelivery;
  /** The delivery's unit of work: its transaction, and `stage` for events the handler emits. */
  work: RequestWork;
  request: Request;
}

/** The context handed to a handler when no `context` factory is given. */
export interface DefaultDeliveryContext {
  app: string;
  workspace: Workspace;
  transaction: Transaction;
  /** Stages an event the subscriber declares; it leaves only if the handler succeeds. */
  stage(action: string, payload: Record<string, unknown>, metadata?: Record<string, unknown>, options?: StageOptions): void;
  log: Logger;
}

/**
 * A subscription handler: return to acknowledge (200). A throw rolls its writes back; a transient
 * failure (`isTransientError` of the SDK) answers 503 so the broker retries, any other is logged
 * and answered 200.
 */
export type SubscriptionHandler<C = DefaultDeliveryContext> = (event: ParsedDelivery, ctx: C) => unknown | Promise<unknown>;

/** Options of `mountSubscriptions`. */
export interface MountSubscriptionsOptions<C = DefaultDeliveryContext> {
  /** The subscriber's slug, registered with `address: null`. */
  app: string;
  /** One function per declared subscription, keyed by its action or by its handler path. */
  handlers: Record<string, SubscriptionHandler<C>>;
  /** Builds the handler's context (an app's `ctx`), scoped to the event's workspace. */
  context?: (input: DeliveryContextInput) => C | Promise<C>;
  /** Mount only the subscriptions that have a handler here (the runtime adds its own in parts). */
  partial?: boolean;
}

export interface ReceiverDeps {
  registry: EventRegistry;
  sequelize: Sequelize;
  sink: EventSink;
  workspaces: WorkspaceService;
  brokerSecret: string;
  logger: Logger;
}

const MAX_BODY = 1024 * 1024;

/**
 * Routes for the subscriptions of an in-process participant, at `/_events/{slug}{handler}`. Each
 * verifies the signature (401 when wrong), reads `workspace_id`, and runs the handler in one
 * transaction with a context scoped to that workspace. It answers 200 when the handler succeeds
 * and also when it fails for good (logged, writes rolled back): non-200 only asks for a retry.
 * What is transient is decided in one place, the SDK's `isTransientError` (RetryDeliveryError,
 * serialization failure, deadlock, unique violation from a concurrent delivery, lock or statement
 * timeout, lost connection): 503, writes rolled back, the broker tries again.
 */
export function subscriptionRoutes<C>(deps: ReceiverDeps, options: MountSubscriptionsOptions<C>): ServerRoute[] {
  const participant = deps.registry.participant(options.app);
  const where = `events: mountSubscriptions("${options.app}")`;
  if (!participant) throw new EventRegistrationError(`${where}: the participant is not registered`);
  if (participant.address !== null) throw new EventRegistrationError(`${where}: the participant has an address (${participant.address}); only in-process participants (address null) are mounted`);
  const subscriptions = deps.registry.declarations().find((declaration) => declaration.slug === options.app)?.subscriptions ?? [];
  const known = new Set(subscriptions.flatMap((subscription) => [subscription.action, subscription.handler]));
  for (const key of Object.keys(options.handlers)) {
    if (!known.has(key)) throw new EventRegistrationError(`${where}: handlers.${key} matches no declared subscription (give an action or a handler path)`);
    if (typeof options.handlers[key] !== 'function') throw new EventRegistrationError(`${where}: handlers.${key} must be a function`);
  }
  const byPath = new Map<string, Map<string, SubscriptionHandler<C>>>();
  for (const subscription of subscriptions) {
    const fn = options.handlers[subscription.action] ?? options.handlers[subscription.handler];
    if (!fn) {
      if (options.partial) continue;
      throw new EventRegistrationError(`${where}: no handler for the subscription to ${subscription.action} (${subscription.handler})`);
    }
    const actions = byPath.get(subscription.handler) ?? new Map<string, SubscriptionHandler<C>>();
    actions.set(subscription.action, fn);
    byPath.set(subscription.handler, actions);
  }
  const secret = signingSecretFor(deps.brokerSecret, participant);
  const log = deps.logger.child({ subscriber: options.app });

  return [...byPath.entries()].map(([handlerPath, actions]) => ({
    method: 'POST',
    path: localHandlerPath(options.app, handlerPath),
    options: {
      auth: false,
      app: { wpk: { kind: 'system', scope: 'any' } },
      payload: { parse: false, output: 'data', maxBytes: MAX_BODY },
      handler: async (request: Request, h: ResponseToolkit) => {
        const body = request.payload as Buffer;
        if (!verifySignature(body, request.headers[SIGNATURE_HEADER] as string | undefined, secret)) {
          return h.response({ error: 'Invalid broker signature' }).code(401);
        }
        let delivery: ParsedDelivery;
        try {
          delivery = parseDelivery(body, request.headers as Record<string, string | undefined>);
        } catch (error) {
          log.warn({ err: error, path: request.path }, 'malformed event delivery dropped');
          return h.response({ received: false, reason: (error as Error).message }).code(200);
        }
        const fn = actions.get(delivery.action);
        const context = { delivery_id: delivery.deliveryId, action: delivery.action, attempt: delivery.attempt, workspace_id: delivery.workspaceId };
        if (!fn) {
          log.warn(context, 'event delivered to a handler that does not subscribe to it; dropped');
          return h.response({ received: false, reason: `no subscription to ${delivery.action} here` }).code(200);
        }
        const workspace = await deps.workspaces.findById(delivery.workspaceId);
        if (!workspace) {
          log.warn(context, 'event for an unknown workspace dropped');
          return h.response({ received: false, reason: 'unknown workspace' }).code(200);
        }
        request.app.workspace = workspace;
        try {
          await runInRequestTransaction(deps.sequelize, deps.sink, request, h, async (work) => {
            const ctx = options.context
              ? await options.context({ app: options.app, workspace, delivery, work, request })
              : // Without a context factory C is DefaultDeliveryContext (the default); the generic cannot say so.
                (defaultContext(deps.registry, options.app, workspace, work, log.child(context)) as unknown as C);
            await fn(delivery, ctx);
            return h.response({ received: true }).code(200);
          });
          return h.response({ received: true }).code(200);
        } catch (error) {
          if (classifyHandlerError(error) === 'transient') {
            log.warn({ ...context, err: error }, 'event handler failed for the moment; the broker will retry the delivery');
            // The database's message (key values, ...) stays in the log, not in the answer.
            const reason = error instanceof RetryDeliveryError ? error.message : 'the handler failed for the moment';
            return h.response({ error: `Retry later: ${reason}` }).code(503);
          }
          log.error({ ...context, err: error }, 'event handler failed; the delivery is acknowledged and will not be retried');
          return h.response({ received: true, handled: false }).code(200);
        }
      },
    },
  }));
}

function defaultContext(registry: EventRegistry, app: string, workspace: Workspace, work: RequestWork, log: Logger): DefaultDeliveryContext {
  return {
    app,
    workspace,
    transaction: work.transaction,
    stage(action, payload, metadata = {}, options = {}) {
      stageEvent(work, { emitter: app, action, payload, metadata, options, workspaceId: workspace.id }, (name) => registry.emitProblem(app, name));
    },
    log,
  };
}
