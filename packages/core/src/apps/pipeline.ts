import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import {
  contentDisposition,
  ForbiddenError,
  TooManyRequestsError,
  memberMrn,
  type AnyAppRoute,
  type AppContext,
  type AppLogger,
  type AppMailMessage,
  type AppRequest,
  type AppClaims,
  type AppSecrets,
  type AppStorage,
  type BaseContext,
  type ChainStep,
  type CheckContext,
  type ContextApp,
  type ContextPermissions,
  type DeliveredEvent,
  type FileAnswer,
  isFileAnswer,
  type PublicContext,
  type RouteRateLimit,
  type SearchDocument,
  type SearchHooks,
  type StageOptions,
  payloadChecker,
  type PayloadChecker,
} from '@wpk/sdk';
import type { Logger } from 'pino';
import { createHash } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { credentialsOf, type AppRequestAccess, type CheckOutcome, type Credentials, type PermissionSet } from '../access/index.js';
import { stageEvent, withdrawEvents, type EventSink } from '../events/index.js';
import { clientAddressOf, collection, parsePagination, runLazyRequestWork, runUnitOfWork, single, type RequestWork, type WorkGate } from '../server/index.js';
import { SecretBox, type CountedAttempt, type Throttle } from '../identity/index.js';
import type { LivePublication, LivePublisher, LiveMember } from '../live/index.js';
import type { SignalingService } from '../signaling/index.js';
import type { SearchIndexer, SearchOperation } from './search-operations.js';
import { queuedMail, type MailOutbox, type QueuedMail } from '../mail/index.js';
import type { StorageService, StorageUnit } from '../storage/index.js';
import { publicOrigin, type WorkspaceRecord as Workspace } from '../tenancy/index.js';
import type { LoadedApp } from './loader.js';
import { checkMemberReferences, routeMemberFields, WorkspaceMembers, type DirectoryRead, type RouteMemberFields } from './members.js';
import { scopedDb, type BoundModels } from './models.js';
import type { StrictRoles } from './strict-roles.js';
import { releaseClaim, takeClaim } from './claims.js';

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
  /** Where `ctx.mail` queues (with the work) and what sends after the commit. */
  mail(): MailOutbox;
}

/** A signaling change an app asked for, applied once its work committed. */
export type SignalingOperation = { op: 'end'; session: string } | { op: 'remove'; session: string; memberIds: string[] };

/** An app ready to serve: what was loaded plus its bound models. */
export interface AppRuntime {
  app: LoadedApp;
  models: BoundModels;
}

/**
 * The work unit of a request or a delivery: its transaction (null while a request's LazyWork has
 * not written yet), staged events, and for a request the gate its ctx.db statements go through.
 */
export type Work = { transaction: RequestWork['transaction'] | null; stage: RequestWork['stage']; gate?: WorkGate; begin?: () => Promise<RequestWork['transaction']> };

/** What a context reads of an app's manifest, built once per app (not per request). */
interface AppFacts {
  app: ContextApp;
  declaredEvents: ReadonlySet<string>;
  searchTypes: ReadonlySet<string>;
  defaults: Readonly<Record<string, unknown>>;
}

const appFacts = new WeakMap<LoadedApp, AppFacts>();

function factsOf(app: LoadedApp): AppFacts {
  let facts = appFacts.get(app);
  if (!facts) {
    facts = {
      app: Object.freeze({ slug: app.slug, id: app.namespace, name: app.manifest.name, version: app.manifest.version }),
      declaredEvents: new Set((app.manifest.events ?? []).map((event) => event.action)),
      searchTypes: new Set((app.manifest.search ?? []).map((entry) => entry.type)),
      defaults: frozenCopy(app.manifest.settings?.defaults ?? {}) as Readonly<Record<string, unknown>>,
    };
    appFacts.set(app, facts);
  }
  return facts;
}

/**
 * A deep copy of JSON data (settings as read from the database), frozen. Cheaper than
 * `structuredClone` + freeze on the small objects settings are, and the app cannot change them.
 */
function frozenCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (value instanceof Date) return new Date(value.getTime());
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(copy);
}

function contextWorkspace(workspace: Workspace, publicUrl: string) {
  return Object.freeze({ id: workspace.id, subdomain: workspace.subdomain, name: workspace.name, plan: workspace.plan, origin: publicOrigin(publicUrl, workspace.subdomain) });
}

/** `ctx.log`; the logger is made at the first line logged (most requests log none). */
function appLogger(loggerOf: Logger | (() => Logger)): AppLogger {
  let made: Logger | null = typeof loggerOf === 'function' ? null : loggerOf;
  const call = (level: 'debug' | 'info' | 'warn' | 'error') => (objectOrMessage: object | string, message?: string) => {
    const logger = (made ??= (loggerOf as () => Logger)());
    if (typeof objectOrMessage === 'string') logger[level](objectOrMessage);
    else logger[level](objectOrMessage, message);
  };
  return Object.freeze({ debug: call('debug'), info: call('info'), warn: call('warn'), error: call('error') });
}

function contextPermissions(permissions: PermissionSet, app: LoadedApp): ContextPermissions {
  return Object.freeze({ has: (key: string) => permissions.has(key), keys: () => permissions.expand(app.declaredKeys) });
}

function toAppRequest(request: Request): AppRequest<unknown> {
  return {
    method: request.method.toUpperCase(),
    path: request.path,
    params: { ...(request.params as Record<string, string>) },
    query: { ...(request.query as Record<string, unknown>) },
    payload: request.payload ?? null,
    headers: { ...request.headers } as Record<string, string | string[] | undefined>,
  };
}

const checkers = new WeakMap<LoadedApp, PayloadChecker>();

/** The payload checker of an app's declared events (schemas compiled once, on first use). */
function checkerOf(app: LoadedApp): PayloadChecker {
  let checker = checkers.get(app);
  if (!checker) {
    checker = payloadChecker(app.manifest.events ?? []);
    checkers.set(app, checker);
  }
  return checker;
}

const STORAGE_METHODS = ['put', 'get', 'head', 'delete', 'signedDownloadUrl', 'signedUploadUrl'] as const;

/**
 * `ctx.storage` of one app in one workspace. Object rows live in the platform schema, which an
 * app's strict-mode role cannot reach: there each call steps back to the runtime's role and
 * returns to the app's (one call at a time).
 */
function storageHandle(app: LoadedApp, workspace: Workspace, storage: StorageService | null, unit: StorageUnit | null, strict: StrictRoles | null): AppStorage {
  if (!storage || !unit) {
    const missing = () => Promise.reject(new Error('No file storage in this runtime'));
    return Object.freeze(Object.fromEntries(STORAGE_METHODS.map((name) => [name, missing])) as unknown as AppStorage);
  }
  const inner = storage.scope({ workspaceId: workspace.id, subdomain: workspace.subdomain, namespace: app.namespace }, unit);
  if (!strict) return inner;
  const asRuntime = runtimeRoleCalls(strict, app);
  return Object.freeze(Object.fromEntries(STORAGE_METHODS.map((name) => [name, (...args: unknown[]) => asRuntime(() => (inner[name] as (...a: unknown[]) => Promise<unknown>).apply(inner, args))])) as unknown as AppStorage);
}

/**
 * Calls that read or write the platform's schema on behalf of an app in strict mode, where the
 * app's own role cannot reach it: each steps back to the runtime's role and returns to the
 * app's, one call at a time (the transaction's role is one setting for all its statements).
 */
function runtimeRoleCalls(strict: StrictRoles, app: LoadedApp): <T>(call: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(call: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      await strict.leave();
      try {
        return await call();
      } finally {
        await strict.enter(app);
      }
    });
    queue = run.catch(() => {});
    return run;
  };
}

/** `ctx.members` of one unit of work: the directory read in its transaction (or through its gate), under the runtime's role. */
function membersOf(app: LoadedApp, workspace: Workspace, work: Work, sequelize: Sequelize, strict: StrictRoles | null): WorkspaceMembers {
  const select = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });
  const inWork: DirectoryRead = work.gate ? (sql, replacements) => work.gate!.read(() => select(sql, replacements)) : select;
  if (!strict) return new WorkspaceMembers(inWork, workspace.id);
  const asRuntime = runtimeRoleCalls(strict, app);
  return new WorkspaceMembers((sql, replacements) => asRuntime(() => inWork(sql, replacements)), workspace.id);
}

/**
 * A `ctx.storage` whose handle is made when the handler first calls it (most requests touch no
 * file). A plain object, not a getter on the context: an accessor made per request gives every
 * context a hidden class of its own, which V8's young-generation collections keep alive together
 * with everything the getter's closure holds, so every request was promoted to the old generation
 * (docs/decisions/0025-hot-path.md).
 */
class DeferredStorage implements AppStorage {
  #make: () => AppStorage;
  #handle: AppStorage | null = null;

  constructor(make: () => AppStorage) {
    this.#make = make;
  }

  #storage(): AppStorage {
    return (this.#handle ??= this.#make());
  }

  put(...args: Parameters<AppStorage['put']>) {
    return this.#storage().put(...args);
  }

  get(...args: Parameters<AppStorage['get']>) {
    return this.#storage().get(...args);
  }

  head(...args: Parameters<AppStorage['head']>) {
    return this.#storage().head(...args);
  }

  delete(...args: Parameters<AppStorage['delete']>) {
    return this.#storage().delete(...args);
  }

  signedDownloadUrl(...args: Parameters<AppStorage['signedDownloadUrl']>) {
    return this.#storage().signedDownloadUrl(...args);
  }

  signedUploadUrl(...args: Parameters<AppStorage['signedUploadUrl']>) {
    return this.#storage().signedUploadUrl(...args);
  }
}

/**
 * `ctx.claims` of one app in one workspace. Claims live in the platform schema, which an app's
 * strict-mode role cannot reach: each call steps back to the runtime's role, in the work's
 * transaction (a lazily opened request transaction opens now).
 */
function claimsHandle(app: LoadedApp, workspace: Workspace, work: Work, sequelize: Sequelize, strict: StrictRoles | null): AppClaims {
  const inWork = async <T>(call: (transaction: Transaction) => Promise<T>): Promise<T> => {
    const transaction = (work.begin ? await work.begin() : work.transaction!) as unknown as Transaction;
    if (!strict) return call(transaction);
    await strict.leave();
    try {
      return await call(transaction);
    } finally {
      await strict.enter(app);
    }
  };
  return Object.freeze({
    take: (kind: string, name: string) => inWork((transaction) => takeClaim(sequelize, transaction, { app: app.namespace, workspaceId: workspace.id, kind, name })),
    release: (kind: string, name: string) => inWork((transaction) => releaseClaim(sequelize, transaction, { app: app.namespace, workspaceId: workspace.id, kind, name })),
  });
}

const secretBoxes = new WeakMap<LoadedApp, AppSecrets>();

/** `ctx.secrets` of an app: a SecretBox keyed by the platform's secret and the app's namespace. */
function secretsOf(app: LoadedApp, secret: string): AppSecrets {
  let secrets = secretBoxes.get(app);
  if (!secrets) {
    const box = new SecretBox(`${secret}\napp:${app.namespace}`);
    secrets = Object.freeze({ seal: (plain: string) => box.seal(plain), open: (sealed: string) => box.open(sealed) });
    secretBoxes.set(app, secrets);
  }
  return secrets;
}

const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(;\s*[a-z0-9_-]+=[a-z0-9_.-]+)*$/i;

/** `ctx.respond.file`: checks the media type and file name now, so a bad one fails in the handler. */
function fileAnswer(body: string | Buffer, options: { contentType: string; filename?: string }): FileAnswer {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) throw new TypeError('ctx.respond.file: the body must be a string or a Buffer');
  if (typeof options?.contentType !== 'string' || !MEDIA_TYPE.test(options.contentType)) throw new TypeError(`ctx.respond.file: ${String(options?.contentType)} is not a media type`);
  const filename = options.filename ?? null;
  // Any name is sent exactly (RFC 6266's filename*, see contentDisposition): only its length is bounded.
  if (filename !== null && (typeof filename !== 'string' || filename.length === 0 || filename.length > 255)) throw new TypeError('ctx.respond.file: the file name must be 1-255 characters');
  return Object.freeze({ kind: 'wpk.file' as const, body, contentType: options.contentType, filename });
}

const LIVE_CHANNEL = /^([a-z][a-z0-9-]{0,40})\/([A-Za-z0-9_-]{1,100})$/;
const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** `ctx.signaling` of one app in one workspace: tickets now, ends and removals queued for after the commit. */
function signalingHandle(app: LoadedApp, workspace: Workspace, service: SignalingService | null, ops: SignalingOperation[]) {
  const kinds = app.definition?.signaling ?? {};
  const sessionOf = (kind: string, id: string) => {
    if (!Object.hasOwn(kinds, String(kind))) throw new Error(`${app.namespace} has no signaling session kind ${String(kind)} (it declares ${Object.keys(kinds).join(', ') || 'none'})`);
    if (!SESSION_ID.test(String(id))) throw new TypeError(`${app.namespace}: a signaling session id is 1-100 letters, digits, - or _ (got ${JSON.stringify(String(id).slice(0, 120))})`);
    return `${app.namespace}/${kind}/${id}`;
  };
  return Object.freeze({
    session(kind: string, id: string) {
      const session = sessionOf(kind, id);
      if (!service) throw new Error('No signaling in this runtime');
      return service.ticket(workspace, session);
    },
    end(kind: string, id: string) {
      ops.push({ op: 'end', session: sessionOf(kind, id) });
    },
    remove(kind: string, id: string, memberIds: string[]) {
      if (!Array.isArray(memberIds) || memberIds.some((member) => typeof member !== 'string')) throw new TypeError(`${app.namespace}: ctx.signaling.remove takes an array of member ids`);
      ops.push({ op: 'remove', session: sessionOf(kind, id), memberIds: [...memberIds] });
    },
  });
}
const LIVE_TYPE = /^[a-z][a-z0-9_.-]{0,99}$/;

/** The parts every context shares: app, workspace, db, events, search, live, storage, signaling, secrets, mail, settings, now, log. */
function baseContext<Extra extends object = object>(runtime: AppRuntime, workspace: Workspace, work: Work, settings: Record<string, unknown> | null, logger: Logger | (() => Logger), searchOps: SearchOperation[], storage: AppStorage, platform: Pick<PipelineServices, 'secret' | 'clock' | 'publicUrl' | 'sequelize' | 'strict'>, liveOps: LivePublication[] = [], mailOps: QueuedMail[] = [], signaling: { service: SignalingService | null; ops: SignalingOperation[] } = { service: null, ops: [] }, extra?: Extra): BaseContext & Extra {
  const { app } = runtime;
  const liveKinds = app.definition?.live ?? {};
  const facts = factsOf(app);
  const { declaredEvents, searchTypes } = facts;
  return {
    ...(extra as Extra),
    app: facts.app,
    workspace: contextWorkspace(workspace, platform.publicUrl),
    db: scopedDb(runtime.models, workspace.id, work.gate),
    transaction: work.transaction,
    events: Object.freeze({
      stage(action: string, payload: Record<string, unknown>, metadata: Record<string, unknown> = {}, options: StageOptions = {}) {
        stageEvent(work, { emitter: app.namespace, action, payload, metadata, options, workspaceId: workspace.id }, (name) =>
          declaredEvents.has(name) ? null : `${app.namespace} may not emit ${name}: its manifest does not declare it`,
          (name, body) => checkerOf(app).check(name, body),
        );
      },
      withdraw(action: string, dedupeKey: string) {
        withdrawEvents(work, { emitter: app.namespace, action, dedupeKey, workspaceId: workspace.id }, (name) =>
          declaredEvents.has(name) ? null : `${app.namespace} may not withdraw ${name}: its manifest does not declare it`,
        );
      },
    }),
    async lock(key: string) {
      if (typeof key !== 'string' || key.length === 0 || key.length > 200) throw new TypeError(`${app.namespace}: ctx.lock takes a key of 1-200 characters`);
      // Two 32-bit halves: the app and workspace, then the key. The two-argument form has its own
      // key space, so these never meet a one-argument lock taken elsewhere.
      // A lazily opened request transaction opens now: the lock lasts until it ends.
      const transaction = work.begin ? await work.begin() : work.transaction!;
      await (transaction as unknown as { sequelize: Sequelize }).sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:scope), hashtext(:key))', { transaction, replacements: { scope: `${app.namespace}/${workspace.id}`, key } });
    },
    members: membersOf(app, workspace, work, platform.sequelize, platform.strict),
    search: Object.freeze({
      upsert(document: SearchDocument) {
        if (!searchTypes.has(document.type)) throw new Error(`${app.namespace} may not index type ${document.type}: its manifest does not declare it`);
        if (!document.id || !document.title || !document.url || !Array.isArray(document.names)) throw new TypeError(`search upsert of ${document.type}: id, title, url and names are required`);
        searchOps.push({ op: 'upsert', document: structuredClone(document) });
      },
      remove(type: string, id: string) {
        if (!searchTypes.has(type)) throw new Error(`${app.namespace} may not index type ${type}: its manifest does not declare it`);
        searchOps.push({ op: 'remove', type, id: String(id) });
      },
    }),
    live: Object.freeze({
      publish(channel: string, type: string, data: unknown, options: { audience?: string[]; revoke?: string[] } = {}) {
        const match = LIVE_CHANNEL.exec(String(channel));
        if (!match || !Object.hasOwn(liveKinds, match[1])) throw new Error(`${app.namespace} may not publish to ${String(channel)}: channels are {kind}/{id} of a kind the app declares (${Object.keys(liveKinds).join(', ') || 'none'})`);
        if (!LIVE_TYPE.test(String(type))) throw new TypeError(`${app.namespace}: live event type ${String(type)} must be 1-100 lower-case letters, digits, dots, dashes or underscores`);
        liveOps.push({ channel: `${app.namespace}/${channel}`, type, data: structuredClone(data ?? null), audience: options.audience ? [...options.audience] : null, revoke: [...(options.revoke ?? [])] });
      },
    }),
    storage,
    signaling: signalingHandle(app, workspace, signaling.service, signaling.ops),
    secrets: secretsOf(app, platform.secret),
    claims: claimsHandle(app, workspace, work, platform.sequelize, platform.strict),
    mail: Object.freeze({
      send(message: AppMailMessage) {
        mailOps.push(queuedMail(message, app.manifest.name));
      },
    }),
    settings: settings === null ? facts.defaults : (frozenCopy(settings) as Record<string, unknown>),
    now: () => new Date(platform.clock().getTime()),
    log: appLogger(logger),
  };
}

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

  /** The hapi route serving one route of an app (layers 4-5 run before it, in the app guard). */
  hapiRoute(runtime: AppRuntime, route: AnyAppRoute, chain: readonly ChainStep[] | null): ServerRoute {
    const { app } = runtime;
    const isPublic = chain === null;
    const validate: Record<string, unknown> = {};
    if (route.validate?.params) validate.params = route.validate.params;
    if (route.validate?.query) validate.query = route.validate.query;
    if (route.validate?.payload) validate.payload = route.validate.payload;
    const memberFields = routeMemberFields(route.validate);
    return {
      method: route.method,
      path: `${app.routePrefix}${route.path}`,
      options: {
        ...(isPublic ? { auth: false as const } : {}),
        description: route.description,
        tags: ['app', app.namespace],
        validate,
        app: { wpk: { kind: 'api', scope: 'workspace', ...(isPublic ? { anyOrigin: true } : {}) }, wpkApp: { namespace: app.namespace, chain, entry: `${route.method} ${route.path}` }, ...(route.answers ? { answers: route.answers } : {}) },
      },
      handler: (request: Request, h: ResponseToolkit) => this.handle(runtime, route, memberFields, request, h),
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
      const unitOfWork: Work = { transaction: work.transaction, stage: (event) => work.stage(event), gate: work, begin: () => work.begin() };
      const signaling = { service: this.signaling(), ops: signalingOps };
      const body = await this.underAppRole(app, async () => {
        if (route.public) {
          const ctx: PublicContext = baseContext(runtime, workspace, unitOfWork, settings, logger, searchOps, files, this.services, liveOps, mailOps, signaling, { member: null, key: null, page, respond });
          return route.handler(toAppRequest(request), Object.freeze(ctx));
        }
        const credentials = credentialsOf(request);
        const ctx: AppContext = baseContext(runtime, workspace, unitOfWork, settings, logger, searchOps, files, this.services, liveOps, mailOps, signaling, {
          member: memberOf(credentials),
          key: credentials.via.kind === 'api_key' ? Object.freeze({ id: credentials.via.keyId, full_access: credentials.via.fullAccess }) : null,
          permissions: contextPermissions(access.permissions!, app),
          page,
          respond,
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
      const ctx = baseContext(runtime, workspace, work, settings, logger, searchOps, storageHandle(app, workspace, storage, unit, this.services.strict), this.services, liveOps, mailOps, { service: this.signaling(), ops: signalingOps });
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
      const searchOps: SearchOperation[] = [];
      const ctx = Object.freeze(baseContext(runtime, workspace, work, settings, logger, searchOps, files, this.services));
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
      const ctx = Object.freeze(baseContext(runtime, workspace, work, settings, logger, searchOps, files, this.services, liveOps, mailOps, { service: this.signaling(), ops: signalingOps }));
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

function memberOf(credentials: Credentials) {
  const { member } = credentials;
  return Object.freeze({ id: member.id, mrn: memberMrn(member.id), name: member.name, email: member.email, platform_role: member.platformRole });
}
