import type { OpenAiCompatibleModel } from '../ai/chat-model.js';
import type { Lifecycle, Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import {
  contentDisposition,
  ForbiddenError,
  TooManyRequestsError,
  memberMrn,
  type AnyAppRoute,
  type AppContext,
  type BaseContext,
  type ChainStep,
  type CheckContext,
  type DeliveredEvent,
  type FileAnswer,
  isFileAnswer,
  type PublicContext,
  type RouteRateLimit,
  type SearchDocument,
  type SearchHooks,
  type WorkspaceConfiguration,
} from '@wpk/sdk';
import type { Logger } from 'pino';
import { createHash } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { credentialsOf, type AppRequestAccess, type CheckOutcome, type Credentials, type ExplainCatalog, type PermissionSet } from '../access/index.js';
import type { ConfigurationCapability } from './configuration.js';
import type { EventSink } from '../events/index.js';
import { clientAddressOf, collection, parsePagination, runLazyRequestWork, runUnitOfWork, single } from '../server/index.js';
import type { CountedAttempt, Throttle } from '../identity/index.js';
import type { LivePublication, LivePublisher, LiveMember } from '../live/index.js';
import type { SignalingService } from '../signaling/index.js';
import type { SearchIndexer, SearchOperation } from './search-operations.js';
import type { MailOutbox, QueuedMail } from '../mail/index.js';
import type { StorageService, StorageUnit } from '../storage/index.js';
import { publicOrigin, type WorkspaceRecord as Workspace } from '../tenancy/index.js';
import type { LoadedApp } from './loader.js';
import { checkMemberReferences, routeMemberFields, type RouteMemberFields } from './members.js';
import { scopedDb } from './models.js';
import type { StrictRoles } from './strict-roles.js';
import {
  appLogger,
  baseContext,
  contextPermissions,
  contextWorkspace,
  DeferredStorage,
  emptyOutbox,
  factsOf,
  fileAnswer,
  keyOf,
  memberOf,
  storageHandle,
  toAppRequest,
  type AppRuntime,
  type ContextInputs,
  type PlatformRequester,
  type SignalingOperation,
  type Work,
} from './context/index.js';
import { runtimeRoleCalls } from './context/strict.js';

/** What the pipeline needs from the runtime (the `apps` plugin builds it once; tests substitute through the runtime's seams). */
export interface PipelineServices {
  sequelize: Sequelize;
  logger: Logger;
  sink(): EventSink;
  searchIndexer(): SearchIndexer | null;
  /** The file storage behind `ctx.storage` (null: none, and `ctx.storage` throws). */
  storage(): StorageService | null;
  strict: StrictRoles | null;
  /** The platform's secret key (`WPK_SECRET_KEY` or the generated one): `ctx.secrets` derives each app's key from it. */
  secret: string;
  /** Where `ctx.live` publishes after the commit (null: nowhere, publications are dropped). */
  live(): LivePublisher | null;
  /** What `ctx.signaling` hands out and ends sessions through (null: no signaling, `ctx.signaling` throws). */
  signaling?(): SignalingService | null;
  /** The runtime's clock: `ctx.now()`, and the windows of the routes' rate limits. */
  clock: () => Date;
  /** Counts the requests of routes with `rateLimits` (platform.throttle_counters). */
  throttle: Throttle;
  /** The platform's public URL (`PUBLIC_URL`): `ctx.workspace.origin` derives from it. */
  publicUrl: string;
  /** The configured language model behind `ctx.ai` (null or absent: none). */
  model?: OpenAiCompatibleModel | null;
  /** Where `ctx.mail` queues (with the work) and what sends after the commit. */
  mail(): MailOutbox;
  /** The route table and installations behind `ctx.members.explain` (the permission explainer). */
  access?: ExplainCatalog;
  /** What `ctx.configuration` reads and writes through (absent: every call throws). */
  configuration?: ConfigurationCapability;
  /** Makes `ctx.platform.request`'s in-process requests (absent: `ctx.platform` is null). */
  requests?: PlatformRequester;
}

export type { AppRuntime, SignalingOperation, Work } from './context/index.js';

/**
 * Runs an app's work in one transaction: under the app's role in strict mode, then back to the
 * runtime's role to apply the search changes; staged events are written with the transaction.
 */
export class AppPipeline {
  constructor(private readonly services: PipelineServices) {}

  /** The runtime's clock now (`ctx.now()`, a service host's `now()`). */
  now(): Date {
    return new Date(this.services.clock().getTime());
  }

  private async underAppRole<T>(app: LoadedApp, fn: () => Promise<T>): Promise<T> {
    const strict = this.services.strict;
    if (strict) await strict.enter(app);
    const result = await fn();
    if (strict) await strict.leave();
    return result;
  }

  private async flushSearch(app: LoadedApp, workspaceId: string, operations: SearchOperation[]): Promise<void> {
    if (operations.length === 0) return;
    const indexer = this.services.searchIndexer();
    if (!indexer) {
      this.services.logger.debug({ app: app.namespace, operations: operations.length }, 'no search indexer: index changes dropped');
      return;
    }
    await indexer.apply({ workspaceId, app: app.namespace }, operations);
  }

  /** The hapi route serving one route of an app; `guard` (layers 4-5, access/app-guard.ts) runs before it as the route's own onPostAuth extension. */
  hapiRoute(runtime: AppRuntime, route: AnyAppRoute, chain: readonly ChainStep[] | null, guard: Lifecycle.Method): ServerRoute {
    const { app } = runtime;
    const isPublic = chain === null;
    const validate: Record<string, unknown> = {};
    if (route.validate?.params) validate.params = route.validate.params;
    if (route.validate?.query) validate.query = route.validate.query;
    if (route.validate?.payload) validate.payload = route.validate.payload;
    // The member-reference fields are read from the route's Joi schemas at its first request
    // (describe() over every route of 25 apps was 0.4 s of each boot).
    let memberFields: RouteMemberFields[] | undefined;
    return {
      method: route.method,
      path: `${app.routePrefix}${route.path}`,
      options: {
        ...(isPublic ? { auth: false as const } : {}),
        description: route.description,
        tags: ['app', app.namespace],
        validate,
        app: { wpk: { kind: 'api', scope: 'workspace', ...(isPublic ? { anyOrigin: true } : {}) }, wpkApp: { namespace: app.namespace, chain, entry: `${route.method} ${route.path}` }, ...(route.answers ? { answers: route.answers } : {}) },
        ext: { onPostAuth: { method: guard } },
      },
      handler: (request: Request, h: ResponseToolkit) => this.handle(runtime, route, (memberFields ??= routeMemberFields(route.validate)), request, h),
    };
  }

  private async handle(runtime: AppRuntime, route: AnyAppRoute, memberFields: readonly RouteMemberFields[], request: Request, h: ResponseToolkit): Promise<unknown> {
    const { app } = runtime;
    const access = request.app.appAccess;
    const workspace = request.app.workspace;
    if (!access || !workspace) throw new Error(`${app.namespace}: ${route.method} ${route.path} reached its handler without the app guard`);
    const settings = access.installation.settings ?? null;
    const logger = () => this.services.logger.child({ app: app.namespace, req_id: request.info.id, workspace: workspace.subdomain });
    const page = parsePagination(request.query as Record<string, unknown>);
    const respond = Object.freeze({
      single: <T>(data: T, links?: Record<string, string>) => single(request, data, links),
      collection: <T>(rows: T[], total: number, pagination = page) => collection(request, rows, total, pagination),
      file: (body: string | Buffer, options: { contentType: string; filename?: string }): FileAnswer => fileAnswer(body, options),
    });
    // The route's rate limits count first, before any transaction opens (PGlite's one session
    // would wait on an open one): a request over a bound never reaches the handler.
    if (route.rateLimits?.length) await this.countRateLimits(app, route.rateLimits, request, workspace.id);
    // Every member the input names is a member of this workspace (Joi.memberId / memberMrn),
    // checked in one read before the handler, outside its transaction like the limits above.
    if (memberFields.length > 0) await checkMemberReferences(this.services.sequelize, workspace.id, memberFields, request);
    // ctx.storage is made when the handler first calls it (most requests touch no file).
    let unit: StorageUnit | null = null;
    const files = Object.freeze(
      new DeferredStorage(() => {
        const storage = this.services.storage();
        unit = storage?.unit() ?? null;
        return storageHandle(app, workspace, storage, unit, this.services.strict);
      }),
    );
    // Without a commit, the files the handler wrote are removed again. The transaction opens at the
    // handler's first write (LazyWork); at once in strict mode (the role switch needs it) and for
    // methods that change things, so every write of theirs (files included) is in it.
    const eager = this.services.strict !== null || (request.method !== 'get' && request.method !== 'head');
    const liveOps: LivePublication[] = [];
    const signalingOps: SignalingOperation[] = [];
    const mailOps: QueuedMail[] = [];
    const answer = await runLazyRequestWork(this.services.sequelize, this.services.sink(), request, h, eager, async (work) => {
      const searchOps: SearchOperation[] = [];
      // An app acting for a member (ctx.platform.request): its events say so, for the trail.
      const via = (request.auth.credentials as Partial<Credentials> | null)?.via;
      const trail = via?.kind === 'app_grant' ? { via_app: via.app, ...(via.note ? { via_note: via.note } : {}) } : null;
      const stage: Work['stage'] = trail ? (event) => work.stage({ ...event, metadata: { ...event.metadata, ...trail } }) : (event) => work.stage(event);
      const unitOfWork: Work = { transaction: work.transaction, stage, gate: work, begin: () => work.begin() };
      const inputs: ContextInputs = {
        runtime,
        workspace,
        work: unitOfWork,
        settings,
        logger,
        storage: files,
        signaling: this.signaling(),
        outbox: { search: searchOps, live: liveOps, mail: mailOps, signaling: signalingOps },
        platform: this.services,
      };
      const body = await this.underAppRole(app, async () => {
        if (route.public) {
          const ctx: PublicContext = baseContext(inputs, { member: null, key: null, page, respond });
          return route.handler(toAppRequest(request), Object.freeze(ctx));
        }
        const credentials = credentialsOf(request);
        const ctx: AppContext = baseContext(inputs, {
          member: memberOf(credentials),
          key: keyOf(credentials),
          permissions: contextPermissions(access.permissions!, app),
          page,
          respond,
          configuration: this.configurationOf(inputs, credentials),
        });
        return route.handler(toAppRequest(request), Object.freeze(ctx));
      });
      if (searchOps.length > 0 || mailOps.length > 0) await work.begin();
      await this.flushSearch(app, workspace.id, searchOps);
      if (mailOps.length > 0) await this.services.mail().enqueue(workspace.id, app.namespace, mailOps);
      return body;
    }).finally(() => (unit as StorageUnit | null)?.finish());
    // Committed (a 2xx answer): the live publications leave now; a rolled-back answer dropped them.
    const status = answer && typeof answer === 'object' && 'statusCode' in answer ? Number((answer as { statusCode: number }).statusCode) : 200;
    if (liveOps.length > 0 && status >= 200 && status < 300) await this.publishLive(app, workspace.id, liveOps);
    if (signalingOps.length > 0 && status >= 200 && status < 300) this.applySignaling(workspace.id, signalingOps);
    if (mailOps.length > 0 && status >= 200 && status < 300) this.services.mail().kick();
    if (isFileAnswer(answer)) {
      const response = h.response(answer.body).type(answer.contentType);
      if (answer.filename !== null) response.header('content-disposition', contentDisposition(answer.filename));
      return response;
    }
    return answer;
  }

  /** `ctx.configuration` of a route's caller: in the request's transaction, as the runtime's role (core/apps/configuration.ts). */
  private configurationOf(inputs: ContextInputs, credentials: Credentials): WorkspaceConfiguration {
    const capability = this.services.configuration;
    if (!capability) {
      const absent = () => Promise.reject(new Error('ctx.configuration is not available in this runtime'));
      const requireCaller = () => {
        throw new Error('ctx.configuration is not available in this runtime');
      };
      return Object.freeze({ requireCaller, read: absent, plan: absent, apply: absent });
    }
    const { work } = inputs;
    const asRuntime = this.services.strict ? runtimeRoleCalls(this.services.strict, inputs.runtime.app) : <T>(call: () => Promise<T>) => call();
    return capability.for(inputs.workspace.id, credentials, {
      run: (call) => asRuntime(() => (work.gate ? work.gate.write(call) : call())),
      stage: (event) => work.stage(event),
    });
  }

  private signaling(): SignalingService | null {
    return this.services.signaling?.() ?? null;
  }

  /** Ends or trims committed signaling sessions (this process's peers; see docs/live-updates.md). */
  private applySignaling(workspaceId: string, operations: SignalingOperation[]): void {
    const hub = this.signaling()?.hub;
    if (!hub) return;
    for (const operation of operations) {
      if (operation.op === 'end') hub.end(workspaceId, operation.session);
      else hub.remove(workspaceId, operation.session, operation.memberIds);
    }
  }

  /**
   * Counts one request against each of the route's rate limits, in order (atomically, in the
   * database: see Throttle). Over a bound: 429 with Retry-After, and the bounds counted before it
   * take the request back, so a refused request uses up no other bound.
   */
  private async countRateLimits(app: LoadedApp, limits: RouteRateLimit[], request: Request, workspaceId: string): Promise<void> {
    const counted: CountedAttempt[] = [];
    for (const limit of limits) {
      const value =
        limit.per === 'client' ? clientAddressOf(request) || 'unknown'
        : limit.per === 'member' ? `member:${credentialsOf(request).member.id}`
        : String((request.params as Record<string, unknown>)[limit.per.slice('param:'.length)] ?? '');
      // Keys stay short (the counters' key is at most 300 characters): a long value is hashed.
      const key = `${workspaceId}:${value.length > 100 ? createHash('sha256').update(value).digest('hex') : value}`;
      try {
        counted.push(await this.services.throttle.count({ name: `app:${app.namespace}:${limit.name}`, limit: limit.limit, windowSeconds: limit.windowSeconds, message: limit.message }, key));
      } catch (error) {
        if (error instanceof TooManyRequestsError) for (const attempt of counted) await this.services.throttle.forgive(attempt);
        throw error;
      }
    }
  }

  /** Publishes committed live events; a failure is logged, never turned into the request's failure (as events are fire-and-forget). */
  private async publishLive(app: LoadedApp, workspaceId: string, publications: LivePublication[]): Promise<void> {
    const publisher = this.services.live();
    if (!publisher) return;
    try {
      await publisher.publish(workspaceId, publications);
    } catch (error) {
      this.services.logger.error({ err: error, app: app.namespace }, 'publishing live events failed');
    }
  }

  /** Runs an app's channel rule (`live.{kind}.authorize`) for a subscriber, in a read transaction under the app's role. */
  async authorizeChannel(runtime: AppRuntime, kind: string, input: { workspace: { id: string; subdomain: string; name: string; plan: string }; member: LiveMember; permissions: PermissionSet; id: string }, concern: 'live' | 'signaling' = 'live'): Promise<boolean> {
    const { app } = runtime;
    const rule = concern === 'live' ? app.definition?.live[kind]?.authorize : app.definition?.signaling?.[kind]?.authorize;
    if (!rule) return true;
    const logger = this.services.logger.child({ app: app.namespace, [concern === 'live' ? 'channel' : 'session']: `${kind}/${input.id}` });
    return this.services.sequelize.transaction(() =>
      this.underAppRole(app, async () => {
        const ctx: CheckContext = {
          app: factsOf(app).app,
          workspace: Object.freeze({ ...input.workspace, origin: publicOrigin(this.services.publicUrl, input.workspace.subdomain) }),
          member: Object.freeze({ id: input.member.id, mrn: memberMrn(input.member.id), name: input.member.name, email: input.member.email, platform_role: input.member.platformRole }),
          key: null,
          permissions: contextPermissions(input.permissions, app),
          db: scopedDb(runtime.models, input.workspace.id),
          log: appLogger(logger),
        };
        return (await rule(input.id, Object.freeze(ctx))) === true;
      }),
    );
  }

  /** Runs a named check of an app for the app guard, in a read transaction under the app's role. */
  async runCheck(runtime: AppRuntime, request: Request, access: AppRequestAccess, name: string): Promise<CheckOutcome> {
    const { app } = runtime;
    const check = app.definition?.checks[name];
    if (!check) throw new Error(`${app.namespace}: the authorization table names check ${name}, which the code does not implement`);
    const workspace = request.app.workspace!;
    const credentials = credentialsOf(request);
    const logger = this.services.logger.child({ app: app.namespace, req_id: request.info.id, check: name });
    const result = await this.services.sequelize.transaction(() =>
      this.underAppRole(app, async () => {
        const ctx: CheckContext = {
          app: factsOf(app).app,
          workspace: contextWorkspace(workspace, this.services.publicUrl),
          member: memberOf(credentials),
          key: credentials.via.kind === 'api_key' ? { id: credentials.via.keyId, full_access: credentials.via.fullAccess } : null,
          permissions: contextPermissions(access.permissions!, app),
          db: scopedDb(runtime.models, workspace.id),
          log: appLogger(logger),
        };
        try {
          return await check(toAppRequest(request), Object.freeze(ctx));
        } catch (error) {
          // A check may also refuse by throwing ForbiddenError with its message.
          if (error instanceof ForbiddenError) return { deny: error.message };
          throw error;
        }
      }),
    );
    if (result === true) return { passed: true };
    if (result && typeof result === 'object' && typeof result.deny === 'string') return { passed: false, message: result.deny };
    return { passed: false };
  }

  /**
   * Runs an app's subscription handler for one event inside an open unit of work (the event bus's
   * delivery transaction): under the app's role in strict mode, with a context scoped to the
   * event's workspace; search changes are applied after it. Throws when the handler does.
   */
  async deliverInWork(runtime: AppRuntime, workspace: Workspace, settings: Record<string, unknown>, work: Work, event: DeliveredEvent): Promise<void> {
    const { app } = runtime;
    const handler = app.definition?.subscriptions[event.action];
    if (!handler) throw new Error(`${app.namespace} has no handler for ${event.action}`);
    const logger = this.services.logger.child({ app: app.namespace, action: event.action, delivery: event.deliveryId ?? null, workspace: workspace.subdomain });
    const searchOps: SearchOperation[] = [];
    const storage = this.services.storage();
    const unit = storage?.unit() ?? null;
    const liveOps: LivePublication[] = [];
    const signalingOps: SignalingOperation[] = [];
    const mailOps: QueuedMail[] = [];
    try {
      const storageOfWork = storageHandle(app, workspace, storage, unit, this.services.strict);
      const outbox = { search: searchOps, live: liveOps, mail: mailOps, signaling: signalingOps };
      const ctx = baseContext({ runtime, workspace, work, settings, logger, storage: storageOfWork, signaling: this.signaling(), outbox, platform: this.services });
      await this.underAppRole(app, async () => {
        await handler(structuredClone(event), Object.freeze(ctx));
      });
      await this.flushSearch(app, workspace.id, searchOps);
      if (mailOps.length > 0) await this.services.mail().enqueue(workspace.id, app.namespace, mailOps);
      // After the delivery's transaction commits (never on a rollback).
      const transaction = work.transaction as unknown as { afterCommit(fn: () => unknown): void } | null;
      if (liveOps.length > 0) {
        if (transaction) transaction.afterCommit(() => this.publishLive(app, workspace.id, liveOps));
        else await this.publishLive(app, workspace.id, liveOps);
      }
      if (signalingOps.length > 0) {
        if (transaction) transaction.afterCommit(() => this.applySignaling(workspace.id, signalingOps));
        else this.applySignaling(workspace.id, signalingOps);
      }
      if (mailOps.length > 0) {
        if (transaction) transaction.afterCommit(() => this.services.mail().kick());
        else this.services.mail().kick();
      }
    } catch (error) {
      // The delivery's transaction rolls back: the files the handler wrote go again.
      await unit?.finish();
      throw error;
    }
  }

  /**
   * Runs an app's `reindex` hook of one searchable type in the workspace, in one transaction:
   * the hook reads under the app's role (strict mode), then `write` replaces the type's
   * documents with what it returned (under the runtime's role), so searchers see the old set
   * or the new one, never half of either. Returns the documents written.
   */
  async reindex(runtime: AppRuntime, workspace: Workspace, settings: Record<string, unknown>, type: string, write: (documents: SearchDocument[]) => Promise<void>): Promise<number> {
    const { app } = runtime;
    const hook = app.definition?.search[type]?.reindex as SearchHooks['reindex'];
    if (!hook) throw new Error(`${app.namespace} has no reindex hook for search type ${type}`);
    const logger = this.services.logger.child({ app: app.namespace, reindex: type, workspace: workspace.subdomain });
    const storage = this.services.storage();
    const unit = storage?.unit() ?? null;
    const files = storageHandle(app, workspace, storage, unit, this.services.strict);
    return runUnitOfWork(this.services.sequelize, this.services.sink(), () => workspace.id, async (work) => {
      // Live publications, mails and signaling changes of a reindex hook go nowhere (as ever).
      const outbox = emptyOutbox();
      const searchOps = outbox.search;
      const ctx = Object.freeze(baseContext({ runtime, workspace, work, settings, logger, storage: files, signaling: null, outbox, platform: this.services }));
      const documents = await this.underAppRole(app, async () => {
        const result = await hook(ctx);
        const collected: SearchDocument[] = [];
        for await (const document of result as AsyncIterable<SearchDocument> | Iterable<SearchDocument>) collected.push(structuredClone(document));
        return collected;
      });
      for (const document of documents) {
        if (document?.type !== type) throw new TypeError(`${app.namespace}: the reindex hook of ${type} returned a document of type ${String(document?.type)}`);
      }
      await write(documents);
      await this.flushSearch(app, workspace.id, searchOps);
      return documents.length;
    }).finally(() => unit?.finish());
  }

  /**
   * Runs work of an app's long-lived service in the workspace, in one transaction, with the
   * context a subscription handler gets (under the app's role in strict mode); staged events,
   * search changes and queued mails are written with it; live publications, mails and signaling
   * ends and removals leave after the commit. Throws (after the rollback) when the work does.
   */
  async runService<R>(runtime: AppRuntime, workspace: Workspace, settings: Record<string, unknown>, fn: (ctx: BaseContext) => Promise<R>): Promise<R> {
    const { app } = runtime;
    const logger = this.services.logger.child({ app: app.namespace, service: true, workspace: workspace.subdomain });
    const storage = this.services.storage();
    const unit = storage?.unit() ?? null;
    const files = storageHandle(app, workspace, storage, unit, this.services.strict);
    const liveOps: LivePublication[] = [];
    const mailOps: QueuedMail[] = [];
    const signalingOps: SignalingOperation[] = [];
    const result = await runUnitOfWork(this.services.sequelize, this.services.sink(), () => workspace.id, async (work) => {
      const searchOps: SearchOperation[] = [];
      const outbox = { search: searchOps, live: liveOps, mail: mailOps, signaling: signalingOps };
      const ctx = Object.freeze(baseContext({ runtime, workspace, work, settings, logger, storage: files, signaling: this.signaling(), outbox, platform: this.services }));
      const outcome = await this.underAppRole(app, () => fn(ctx));
      await this.flushSearch(app, workspace.id, searchOps);
      if (mailOps.length > 0) await this.services.mail().enqueue(workspace.id, app.namespace, mailOps);
      return outcome;
    }).finally(() => unit?.finish());
    // Committed: the live publications, mails and signaling changes leave now (a throw above rolled them back).
    if (liveOps.length > 0) await this.publishLive(app, workspace.id, liveOps);
    if (signalingOps.length > 0) this.applySignaling(workspace.id, signalingOps);
    if (mailOps.length > 0) this.services.mail().kick();
    return result;
  }

  /** Delivers one event in a transaction of its own; staged events are written with it. */
  async deliver(runtime: AppRuntime, workspace: Workspace, settings: Record<string, unknown>, event: DeliveredEvent): Promise<void> {
    await runUnitOfWork(this.services.sequelize, this.services.sink(), () => workspace.id, (unit) => this.deliverInWork(runtime, workspace, settings, unit, event));
  }
}
