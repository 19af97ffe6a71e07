import type { AppStorage, PlatformAnswer, PlatformRequest } from '@wpk/sdk';
import type { AppGrant, ExplainCatalog } from '../../access/index.js';
import type { Logger } from 'pino';
import type { OpenAiCompatibleModel } from '../../ai/chat-model.js';
import type { Sequelize } from 'sequelize';
import type { LivePublication } from '../../live/index.js';
import type { QueuedMail } from '../../mail/index.js';
import type { RequestWork, WorkGate } from '../../server/index.js';
import type { SignalingService } from '../../signaling/index.js';
import type { WorkspaceRecord } from '../../tenancy/index.js';
import type { LoadedApp } from '../loader.js';
import type { BoundModels } from '../models.js';
import type { SearchOperation } from '../search-operations.js';
import type { StrictRoles } from '../strict-roles.js';

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

/** A signaling change an app asked for, applied once its work committed. */
export type SignalingOperation = { op: 'end'; session: string } | { op: 'remove'; session: string; memberIds: string[] };

/** Makes one in-process request of `workspace`'s API carrying `grant` (the `apps` plugin's, over `server.inject`). */
export type PlatformRequester = (call: { workspace: WorkspaceRecord; grant: AppGrant; method: PlatformRequest['method']; path: string; payload: unknown }) => Promise<PlatformAnswer>;

/** What the platform lends every context: the same for all apps and requests. */
export interface ContextPlatform {
  sequelize: Sequelize;
  /** Null outside strict mode (then the app runs under the runtime's role). */
  strict: StrictRoles | null;
  /** The platform's secret key: `ctx.secrets` derives each app's key from it. */
  secret: string;
  /** The runtime's clock (`ctx.now()`). */
  clock: () => Date;
  /** The platform's public URL: `ctx.workspace.origin` derives from it. */
  publicUrl: string;
  /** The configured language model (`ctx.ai`), or null/absent: none. */
  model?: OpenAiCompatibleModel | null;
  /** The route table and installations the permission explainer reads (`ctx.members.explain`); absent: it throws. */
  access?: ExplainCatalog;
  /** Makes `ctx.platform.request`'s in-process requests; absent: `ctx.platform` is null. */
  requests?: PlatformRequester;
}

/**
 * What the context's changes wait in until the work commits: search changes are applied in the
 * work, mails queued with it; live publications and signaling changes leave after the commit.
 */
export interface ContextOutbox {
  search: SearchOperation[];
  live: LivePublication[];
  mail: QueuedMail[];
  signaling: SignalingOperation[];
}

/**
 * The one inputs object every capability factory of `ctx` takes (apps/context/*.ts): which app,
 * in which workspace, in which unit of work, with what the platform lends it and where its
 * changes wait. The pipeline builds one per request, delivery, service call or reindex.
 */
export interface ContextInputs {
  runtime: AppRuntime;
  workspace: WorkspaceRecord;
  work: Work;
  /** The installation's settings (null: the manifest's defaults). */
  settings: Record<string, unknown> | null;
  /** The app's logger, or how to make it at the first line logged. */
  logger: Logger | (() => Logger);
  /** `ctx.storage`, made by the caller (a request defers it to the first call). */
  storage: AppStorage;
  /** Where `ctx.signaling` hands out tickets (null: none, and `ctx.signaling.session` throws). */
  signaling: SignalingService | null;
  outbox: ContextOutbox;
  platform: ContextPlatform;
}

/** An empty outbox: a context whose changes the caller does not carry past the work (reindex) still needs one. */
export function emptyOutbox(): ContextOutbox {
  return { search: [], live: [], mail: [], signaling: [] };
}
