import type { AppDb, ModelMap } from './models.js';
import type { AppStorage } from './storage.js';

/** The workspace a request or event belongs to. */
export interface ContextWorkspace {
  /** Workspace id (uuid). */
  id: string;
  /** Its subdomain. */
  subdomain: string;
  /** Its display name. */
  name: string;
  /** Its billing plan (`free` until changed): apps bound per-plan limits with it. */
  plan: string;
  /**
   * Its public origin (`https://acme.example.com`), from the platform's configuration (never
   * from a request's Host): build the links an app puts in mails from it.
   */
  origin: string;
}

/** The member a request acts as (the session's member, or the API key's owner). */
export interface ContextMember {
  /** Member id (uuid). */
  id: string;
  /** `mrn:account:member:{id}`. */
  mrn: string;
  /** Display name. */
  name: string;
  /** Sign-in email. */
  email: string;
  /** `owner`, `admin` or `member`. */
  platform_role: 'owner' | 'admin' | 'member';
}

/** A member of the workspace as the platform's member directory knows them (`ctx.members`). */
export interface DirectoryMember {
  /** Member id (uuid). */
  id: string;
  /** `mrn:account:member:{id}`. */
  mrn: string;
  /** Display name. */
  name: string;
  /** Sign-in email. */
  email: string;
  /** `owner`, `admin` or `member`. */
  platform_role: 'owner' | 'admin' | 'member';
  /** False once the member was removed from the workspace (their records stay theirs). */
  active: boolean;
}

/** One of the five access layers as the permission explainer judged it for a member (`ctx.members.explain`). */
export interface AccessLayerVerdict {
  /** 1 authentication, 2 workspace membership, 3 platform role, 4 app access, 5 app permissions. */
  layer: 1 | 2 | 3 | 4 | 5;
  /** `authentication`, `membership`, `platform_role`, `app_access` or `app_permission`. */
  name: 'authentication' | 'membership' | 'platform_role' | 'app_access' | 'app_permission';
  /** True: passes; false: refuses; null: not judged for a member without a request (layer 1), or not applied to this action (layer 3 on app routes). */
  passed: boolean | null;
  /** Why, in words an admin can read ("member is deactivated", "lacks crm.deals.edit; holds crm.deals.read via role Sales"). */
  reason: string;
}

/** The permission explainer's answer for one member and one action, now. */
export interface AccessExplanation {
  /** The member judged (active or removed). */
  member: DirectoryMember;
  /** The action as asked (`tasks.tasks.create`, `DELETE /tasks/{task_id}`). */
  action: string;
  /** The app the action belongs to (its namespace). */
  app: string;
  /** The operation (`DELETE /tasks/{task_id}`) when the action named one; null for a permission key. */
  operation: string | null;
  /** The chain layer 5 judged: the operation's, or the one key. */
  chain: unknown[];
  /** The five layers, in order. */
  layers: AccessLayerVerdict[];
  /**
   * `allowed`; `refused` (by `decided_by`); or `depends_on_record` when the chain has a check on
   * the record (the task's own creator) the member's keys do not stand in for: allowed only where
   * that check passes.
   */
  decision: 'allowed' | 'refused' | 'depends_on_record';
  /** The first layer that refuses (or leaves it to the record); null when allowed. */
  decided_by: 1 | 2 | 3 | 4 | 5 | null;
}

/**
 * `ctx.members`: the workspace's member directory, read from the platform on every call (never a
 * copy that can lag behind: a member who joined a moment ago is found, one removed a moment ago
 * is inactive). Input fields declared with `Joi.memberId()` / `Joi.memberMrn()` are checked
 * against it before the handler runs; use `require` for references that arrive another way.
 */
export interface ContextMembers {
  /** The member of this workspace with this id or member MRN (active or removed), or null. */
  get(idOrMrn: string): Promise<DirectoryMember | null>;
  /** Several at once (ids or MRNs), in one read: a map by member id; unknown ones are absent. */
  getMany(idsOrMrns: readonly string[]): Promise<Map<string, DirectoryMember>>;
  /**
   * Refuses with `InvalidError` (400) naming `field` unless every value names an active member
   * of this workspace (`{ former: true }`: or one who was removed). Returns them by member id.
   */
  require(idsOrMrns: string | readonly string[], field: string, options?: { former?: boolean }): Promise<Map<string, DirectoryMember>>;
  /**
   * The permission keys among `keys` (any app's: `tasks.tasks.create`) that the member does not
   * hold now, read fresh from their roles on every call (owners and admins hold every key): `[]`
   * when they hold them all; null when the reference names no active member of the workspace.
   * For work an app does on a member's behalf later (an automation's scoped grant).
   */
  lacks(idOrMrn: string, keys: readonly string[]): Promise<string[] | null>;
  /**
   * The permission explainer: for this member now, each of the five access layers with whether
   * it passes and why, and which decides. `action` is a permission key (`tasks.tasks.create`) or
   * an operation of an app (`DELETE /tasks/{task_id}`, or a concrete path), resolved through the
   * runtime's route table to its chain. Judged by the functions the real guard runs, read fresh.
   * Null when the reference names no member of the workspace; `InvalidError` naming `action`
   * when it names no declared key nor operation of a loaded app.
   */
  explain(idOrMrn: string, action: string): Promise<AccessExplanation | null>;
  /** Active members by name (then id), optionally matching `q` in the name or email, one page at a time. */
  list(options?: { q?: string; offset?: number; limit?: number }): Promise<{ rows: DirectoryMember[]; count: number }>;
}

/** An installed app's part of the workspace configuration (`ctx.configuration`): who may open it and its settings. */
export interface ConfiguredApp {
  /** `everyone`, `roles` (the `allowed_roles`) or `approval`. */
  access_policy: 'everyone' | 'roles' | 'approval';
  /** The custom roles that may open the app, by name (ids differ between workspaces), sorted. */
  allowed_roles: string[];
  /** Who may never open it: custom roles by name, members by MRN (`mrn:account:member:{id}`), sorted. */
  redlist: string[];
  /** The app's settings document (the manifest's defaults until an admin saves one); null when the app declares no settings. */
  settings: Record<string, unknown> | null;
}

/** The platform's part of a workspace's configuration: installed apps and custom roles, by name, in a stable order. */
export interface PlatformConfiguration {
  /** Every installed app by namespace (sorted): its access and settings. */
  apps: Record<string, ConfiguredApp>;
  /** Every custom role by name (sorted): its permission keys per app namespace (both sorted). */
  roles: Record<string, { permissions: Record<string, string[]> }>;
}

/** One change a desired configuration makes: `apps.{ns}.access`, `apps.{ns}.settings` or `roles.{name}`. */
export interface ConfigurationChange {
  path: string;
  op: 'create' | 'update' | 'delete';
  /** What an update changes (`access_policy`, `allowed_roles`, `redlist`, `name`, `permissions`, or the settings' top-level keys). */
  fields?: string[];
}

/** What `ctx.configuration.plan` answers: the changes, and how many parts would stay as they are. */
export interface ConfigurationPlan {
  changes: ConfigurationChange[];
  unchanged: { apps: number; roles: number };
}

/**
 * `ctx.configuration`: the workspace's platform configuration as code, for the caller. Every call
 * needs a caller who may manage the workspace (layer 3: an owner or admin, by session or a
 * full-access key; `ForbiddenError` otherwise). Reads and writes run in the request's transaction,
 * the writes as the platform (through the services of core's own routes, with their events and
 * activity records) and recorded in the admin audit.
 */
export interface WorkspaceConfiguration {
  /**
   * The check every call makes, alone: throws `ForbiddenError` (403) unless the caller is an owner
   * or admin. For a route that serves what the capability produced (a stored plan) without calling it.
   */
  requireCaller(): void;
  /** The installed apps (access, settings) and the custom roles now, by name, sorted. */
  read(): Promise<PlatformConfiguration>;
  /**
   * The changes that would make the workspace match `desired`, without writing. Apps absent from
   * it are left as they are; roles absent from it would be deleted. `InvalidError` (400) naming
   * every failing path (`apps.tasks.settings.max_x: must be <= 10`, `apps.crm: not installed ...`).
   */
  plan(desired: PlatformConfiguration): Promise<ConfigurationPlan>;
  /**
   * Makes the workspace match `desired` (checked as `plan` does): roles created and updated, then
   * access and settings, then roles deleted. Records one admin-audit change (`kind: change`) with
   * the given `action` and `target` (what the app applied, its own parts included), even when
   * nothing of the platform's part changes. Answers the platform changes made.
   */
  apply(desired: PlatformConfiguration, audit: { action: string; target: string }): Promise<ConfigurationChange[]>;
}

/** The API key a request came with (absent for a browser session). */
export interface ContextKey {
  /** Key id. */
  id: string;
  /** True for a full-access key (the member's permissions); false for a scoped key (its scopes only). */
  full_access: boolean;
}

/** The app's own identity, as the runtime loaded it. */
export interface ContextApp {
  /** The slug (`hello`). */
  slug: string;
  /** The namespace permission keys and events use: the slug, or `ext.{publisher}.{slug}`. */
  id: string;
  /** Display name. */
  name: string;
  /** The manifest's version. */
  version: string;
}

/** The caller's permissions in this app (only this app's slice is ever loaded). */
export interface ContextPermissions {
  /** True when the caller holds `key` (owners and admins hold every key; `{slug}.*` expands). */
  has(key: string): boolean;
  /** The keys held, expanded against the app's declared permissions. */
  keys(): string[];
}

/** Options of a staged event. */
export interface StageOptions {
  /** The broker rejects a second event with the same dedupe key and the same payload (see also `withdraw`). */
  dedupeKey?: string;
  /** Deliver no earlier than this instant (reminders). */
  deliverAt?: Date;
}

/**
 * The typed contract of an app, as `wpk types` generates it from app.json (`src/app.types.ts`):
 * payloads of the events it emits and receives, by action, and its settings document. Give it
 * as the second type argument of the context, route and handler types; without it everything
 * is `Record<string, unknown>`.
 */
export interface AppTypes {
  /** Payloads of the events the app emits, by action. */
  emits: object;
  /** Payloads of the events the app subscribes to, by action. */
  receives: object;
  /** The settings document. */
  settings: object;
}

/** The contract of an app without generated types: any action, any payload, any settings. */
export interface UntypedApp extends AppTypes {
  emits: Record<string, Record<string, unknown>>;
  receives: Record<string, Record<string, unknown>>;
  settings: Record<string, unknown>;
}

/** The payload type of `action` in a map of payloads by action (`Record<string, unknown>` for an action it does not name). */
export type PayloadOf<Events, A extends string> = A extends keyof Events ? Events[A] : Record<string, unknown>;

/**
 * `ctx.events`: stages events the app declared in its manifest. A staged event leaves only when
 * the request answers 2xx (it is written with the request's transaction); otherwise it is dropped.
 * With generated types (`wpk types`), `action` is one of the app's actions and `payload` its type.
 */
export interface EventStager<Events extends object = UntypedApp['emits']> {
  /**
   * Stages `action` with its payload and free-form metadata. The payload is checked at once
   * against the schema the manifest declares for the action (null values removed first, as the
   * broker does): a payload that breaks it throws `EventPayloadError` naming the action and each
   * failing path, here, in production as in tests. The broker validates again on its side.
   */
  stage<A extends keyof Events & string>(action: A, payload: Events[A], metadata?: Record<string, unknown>, options?: StageOptions): void;
  /**
   * Withdraws the app's events of `action` staged with `dedupeKey` (in this workspace) that no
   * subscriber has received yet: a delayed reminder of a call that moved or was cancelled. It
   * happens with the work's transaction (a rolled-back request withdraws nothing) and reaches
   * events staged before it, earlier in this request too; stage the replacement after it.
   */
  withdraw<A extends keyof Events & string>(action: A, dedupeKey: string): void;
}

/** Options of a live publication. */
export interface LivePublishOptions {
  /** Member ids that may receive the event (default: every subscriber the channel admits). */
  audience?: string[];
  /** Member ids whose subscriptions to the channel end with this event (they lost access at the app's level, e.g. removed from a chat). */
  revoke?: string[];
}

/**
 * `ctx.live`: publishes to the app's live-update channels (docs/live-updates.md). A publication
 * leaves only once the work committed (a request answering 2xx, a delivery that succeeded); a
 * rolled-back write publishes nothing. Channels are `{kind}/{id}` of a kind the app declared
 * (`defineApp(..., { live: { chats: {...} } })`); subscribers see `{app}/{kind}/{id}`.
 */
export interface LiveChannels {
  /** Queues `type` with `data` on the channel `{kind}/{id}`, to be published after the commit, in call order. */
  publish(channel: string, type: string, data: unknown, options?: LivePublishOptions): void;
}

/** One STUN or TURN server a WebRTC client may use (the shape of the browser's `RTCIceServer`). */
export interface IceServer {
  /** `stun:host:port`, `turn:host:port?transport=udp`, `turns:host:443`. */
  urls: string[];
  /** TURN user name, when the server wants one. */
  username?: string;
  /** TURN credential, when the server wants one. */
  credential?: string;
}

/** What a client needs to join a signaling session: put it in the answer of the app's "join" route. */
export interface SignalingTicket {
  /** The signaling websocket, `wss://{subdomain}.{base}/signaling`. */
  url: string;
  /** The session to send in `join`: `{app}/{kind}/{id}`. */
  session: string;
  /** STUN/TURN servers from the platform's configuration (`WEBRTC_ICE_SERVERS`), for `new RTCPeerConnection({ iceServers })`. */
  ice_servers: IceServer[];
}

/**
 * `ctx.signaling`: the app's WebRTC signaling sessions (docs/live-updates.md, "Signaling"). Core
 * owns the socket and relays offers, answers and ICE candidates between the peers who joined one
 * session; the app declares session kinds (`defineApp(..., { signaling: { calls: {...} } })`),
 * hands out tickets, and ends sessions.
 */
export interface AppSignaling {
  /** The ticket for session `{kind}/{id}` of a kind the app declared (throws for another kind). */
  session(kind: string, id: string): SignalingTicket;
  /** Closes the session for every peer (they get `ended`), once the work committed. */
  end(kind: string, id: string): void;
  /** Removes these members' peers from the session (they get `removed`), once the work committed. */
  remove(kind: string, id: string, memberIds: string[]): void;
}

/** A record as the platform search stores it. */
export interface SearchDocument {
  /** One of the app's searchable types (manifest `search[].type`). */
  type: string;
  /** The record's id in the app (unique per type). */
  id: string;
  /** Short badge shown with the result (e.g. `T-42`); may be empty. */
  badge?: string;
  /** Result title. */
  title: string;
  /** Result subtitle. */
  subtitle?: string;
  /** Navigation target. */
  url: string;
  /** Values of the name columns, in the manifest's order. */
  names: string[];
  /** Values of the detail columns. */
  details?: string[];
  /** Filterable attributes (the file picker's `owner`, `type`, ...). */
  filters?: Record<string, string | number | boolean | null>;
  /**
   * Who may find the record (a member's private file, a direct chat), at most 1000 names: member
   * ids, and `role:owner`, `role:admin`, `role:member` for whoever holds that workspace role;
   * absent or null: everyone who may search its type. Owners and admins are not added.
   */
  readers?: string[] | null;
}

/**
 * `ctx.search`: index updates for the app's searchable records, applied with the request's
 * transaction (so a failed request leaves the index untouched).
 */
export interface SearchIndex {
  /** Adds or replaces a record in the index. */
  upsert(document: SearchDocument): void;
  /** Removes a record from the index. */
  remove(type: string, id: string): void;
}

/** `ctx.log`: a structured logger already tagged with the app, the workspace and the request. */
export interface AppLogger {
  /** Debug line. */
  debug(objectOrMessage: object | string, message?: string): void;
  /** Info line. */
  info(objectOrMessage: object | string, message?: string): void;
  /** Warning line. */
  warn(objectOrMessage: object | string, message?: string): void;
  /** Error line. */
  error(objectOrMessage: object | string, message?: string): void;
}

/** A resolved page request (`page`, `per_page` from the query, with the specification's bounds). */
export interface PageRequest {
  /** 1-indexed page. */
  page: number;
  /** Page size, 1-100. */
  perPage: number;
  /** Rows to skip. */
  offset: number;
  /** Rows to take. */
  limit: number;
}

/**
 * A non-JSON answer (`ctx.respond.file`): the body as it is sent, its media type and, for a
 * download, the file name the browser saves it as (`Content-Disposition: attachment`).
 */
export interface FileAnswer {
  /** Marks the object as a file answer (checked by shape, so two copies of the SDK agree). */
  readonly kind: 'wpk.file';
  /** The bytes or text sent as the body. */
  readonly body: string | Buffer;
  /** The `Content-Type` (`text/csv; charset=utf-8`, `text/vcard`). */
  readonly contentType: string;
  /** The download's file name, or null for an inline answer. */
  readonly filename: string | null;
}

/** True for the object `ctx.respond.file` returns. */
export function isFileAnswer(value: unknown): value is FileAnswer {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'wpk.file' && typeof (value as { contentType?: unknown }).contentType === 'string';
}

/** Envelope builders (the specification's single and collection envelopes). */
export interface Responder {
  /** `{data, links: {self, ...}}`. */
  single<T>(data: T, links?: Record<string, string>): { data: T; links: { self: string } & Record<string, string> };
  /**
   * A body that is not JSON (a CSV export, a vCard): sent as given with `contentType`, and as a
   * download named `filename` when one is given. Declare the route's `answers: { file: type }`.
   */
  file(body: string | Buffer, options: { contentType: string; filename?: string }): FileAnswer;
  /** `{data, pagination, links}` for one page of rows and the total. */
  collection<T>(rows: T[], total: number, page?: PageRequest): { data: T[]; pagination: { page: number; per_page: number; total: number; pages: number }; links: Record<string, string | null> };
}

/**
 * Encryption at rest for an app's small secrets (AES-256-GCM under a key derived from the
 * platform's `WPK_SECRET_KEY` and the app's namespace: one app cannot open another's).
 */
export interface AppSecrets {
  /** Encrypts `plain`; the result is ASCII text to store in a column. */
  seal(plain: string): string;
  /** Decrypts what `seal` returned; throws on text sealed by another app or key, or altered. */
  open(sealed: string): string;
}

/** A file attached to an app's mail. */
export interface AppMailAttachment {
  /** The name the recipient sees (1-255 characters, no path separators). */
  filename: string;
  /** Its media type (`application/pdf`, `text/calendar`, ...). */
  contentType: string;
  /** The bytes, or text sent as UTF-8. */
  content: string | Uint8Array;
}

/** One mail an app sends (`ctx.mail.send`). */
export interface AppMailMessage {
  /** 1-50 addresses in all (`to` and `cc`). */
  to: string | string[];
  cc?: string[];
  /** Where replies go (the candidate's recruiter, the meeting's organizer). */
  replyTo?: string;
  /** 1-998 characters, no line breaks. */
  subject: string;
  /** The plain-text body (required: every mail must read well without HTML). */
  text: string;
  /** An HTML alternative of `text`. */
  html?: string;
  /** At most 10 files; all parts of the mail together at most 10 MB. */
  attachments?: AppMailAttachment[];
  /**
   * An iCalendar part (`text/calendar; method=...`): an invitation (`REQUEST`), its
   * cancellation (`CANCEL`), a reply or a published event. Mail clients show it as an invite.
   */
  calendar?: { method: 'REQUEST' | 'CANCEL' | 'PUBLISH' | 'REPLY'; content: string };
}

/**
 * `ctx.mail`: mail from the app, through the platform's mail transport (docs/writing-an-app.md,
 * "Sending mail"). A mail is queued with the work and leaves only after it committed (a request
 * that answered 2xx, a delivery that succeeded); a rolled-back request sends nothing. Queued
 * mails survive a restart and are retried with back-off when the transport fails.
 */
export interface AppMail {
  /** Queues one mail. Throws `InvalidError` (400) naming the field on a bad address, subject or attachment. */
  send(message: AppMailMessage): void;
}

/**
 * `ctx.claims`: names that one workspace of the whole platform may hold at a time, per app and
 * kind (a mail domain, say). A claim is taken in the work's transaction (a rolled-back request
 * takes nothing) and lasts until the holder releases it or the workspace is deleted; nothing
 * another workspace does moves it. The app decides what proves a claim before taking it.
 */
export interface AppClaims {
  /**
   * Takes `name` of `kind` (1-40 and 1-300 characters, compared exactly: normalise first) for
   * this workspace. True when this workspace holds it now (or already did); false when another
   * workspace holds it, which stays untouched.
   */
  take(kind: string, name: string): Promise<boolean>;
  /** Gives `name` of `kind` up if this workspace holds it (no-op otherwise). */
  release(kind: string, name: string): Promise<void>;
}

/** One message of a chat with the platform's language model. */
export interface AppChatMessage {
  role: 'system' | 'user' | 'assistant';
  /** 1-100,000 characters. */
  content: string;
}

/**
 * `ctx.ai`: the platform's language model, the OpenAI-compatible adapter `POST /ai/commands`
 * answers with (`AI_BASE_URL`, `AI_MODEL`); null when the deployment configured none. The app
 * decides what it sends: nothing of the workspace reaches the model unless the app puts it in.
 */
export interface AppAi {
  /** The model's name. */
  readonly model: string;
  /**
   * The model's answer and the tokens it used (as the API reports them). Throws an Error
   * when the model is unreachable or answers an error (a step may retry later).
   */
  complete(messages: readonly AppChatMessage[]): Promise<{ text: string; tokens: number }>;
}

/** One call of `ctx.platform.request`: a request of the workspace API made as a member. */
export interface PlatformRequest {
  /** The member the app acts for: a member id or member MRN of this workspace. */
  member: string;
  /**
   * The permission keys the call may use (1-50, any app's): the member's current permissions are
   * narrowed to them at every layer, so the call never holds more than both.
   */
  scopes: readonly string[];
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path of this workspace's API with its query string (`/tasks?page=2`); never a host. */
  path: string;
  /** The JSON body (POST, PUT, PATCH). */
  payload?: unknown;
  /** A note for the trail (a run id), at most 100 characters: logged with the request and put in its events' metadata (`via_note`). */
  note?: string;
}

/** The answer of `ctx.platform.request`: the status and the parsed JSON body (text when it is not JSON; null when empty). */
export interface PlatformAnswer {
  status: number;
  body: unknown;
}

/**
 * `ctx.platform`: the platform's API called as a member, in process, through the whole access
 * chain of this workspace (layers 1-5 and the target's checks). Null unless the manifest declares
 * `"platform_requests": true`.
 */
export interface AppPlatform {
  /**
   * Makes the request and answers `{ status, body }`; a 4xx or 5xx of the target is an answer,
   * not a throw. Throws `InvalidError` on a malformed call (a path with a host, no scopes). The
   * call's writes belong to this work: they commit or roll back with it.
   */
  request(call: PlatformRequest): Promise<PlatformAnswer>;
}

/** What `ctx.usage.record` answers: false when a record with the same key was written already (nothing written again). */
export interface UsageRecorded {
  recorded: boolean;
}

/**
 * `ctx.usage`: metered usage the platform bills (docs/billing.md, "Metered usage"). Null unless the
 * manifest declares `meters`.
 */
export interface AppUsage {
  /**
   * Records `microns` (a positive integer of millionths of the billing currency, at most
   * 1 000 000 000 000 in one record) on a declared meter, in this work's transaction: a work that
   * rolls back records nothing. `key` (1-200 characters) makes the record idempotent per app and
   * workspace: a second record with the same key writes nothing and answers `{ recorded: false }`
   * (a redelivered event is not billed twice). Throws `InvalidError` for an undeclared meter or a
   * bad amount or key.
   */
  record(meter: string, microns: number, options?: { key?: string }): Promise<UsageRecorded>;
}

/** What every handler of the app receives, in a request or in an event delivery. */
export interface BaseContext<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> {
  /** The app itself. */
  app: ContextApp;
  /** The workspace. */
  workspace: ContextWorkspace;
  /** The app's models, bound to its schema and this workspace. */
  db: AppDb<M>;
  /** The database transaction this work runs in (every ctx.db call joins it already). */
  transaction: unknown;
  /** Stage events. */
  events: EventStager<T['emits']>;
  /**
   * Takes a transaction-scoped lock on `key` (PostgreSQL `pg_advisory_xact_lock`), namespaced by
   * the app and the workspace: a concurrent request or delivery asking for the same key waits
   * until this transaction commits or rolls back. Take it before the reads the rule depends on,
   * around a check-then-write rule whose rows a row lock cannot cover (a count, a chain, a row
   * that may not exist yet): `await ctx.lock(`board:${boardId}:owners`)`.
   */
  lock(key: string): Promise<void>;
  /** The workspace's members, read from the platform (see ContextMembers). */
  members: ContextMembers;
  /** Update the search index. */
  search: SearchIndex;
  /** Publish to the app's live-update channels (after the commit). */
  live: LiveChannels;
  /** Files of this app in this workspace (put, get, delete, signed links). */
  storage: AppStorage;
  /** WebRTC signaling sessions of the app (tickets for clients; ending a session after the commit). */
  signaling: AppSignaling;
  /** Encrypts small secrets the app keeps at rest (credentials, private keys) with the platform's secret key. */
  secrets: AppSecrets;
  /** Platform-wide names one workspace holds at a time (a verified mail domain). */
  claims: AppClaims;
  /** Sends mail from the app (after the commit). */
  mail: AppMail;
  /** The platform's language model, or null when none is configured. */
  ai: AppAi | null;
  /** The platform's API called as a member (`"platform_requests": true` in the manifest), or null. */
  platform: AppPlatform | null;
  /** Metered usage the platform bills (`"meters"` in the manifest), or null. */
  usage: AppUsage | null;
  /** The app's effective settings document in this workspace (typed by `wpk types`). */
  settings: T['settings'];
  /**
   * The current instant by the platform's clock. Use it, not `new Date()`, for every rule that
   * depends on the time (ages, deadlines, expiry): the test harness moves this clock
   * (`platform.clock.advance`), so such rules are testable without waiting.
   */
  now(): Date;
  /** Logger. */
  log: AppLogger;
}

/** The context of a route handler: the base context plus the caller. */
export interface AppContext<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> extends BaseContext<M, T> {
  /** The member the request acts as. */
  member: ContextMember;
  /** The API key used, or null for a browser session. */
  key: ContextKey | null;
  /** The caller's permissions in this app. */
  permissions: ContextPermissions;
  /** `page` / `per_page` of the query, resolved. */
  page: PageRequest;
  /** Envelope builders. */
  respond: Responder;
  /** The workspace's platform configuration (installed apps' access and settings, custom roles), for an owner or admin caller. */
  configuration: WorkspaceConfiguration;
}

/** The context of a public route (no caller). */
export interface PublicContext<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> extends BaseContext<M, T> {
  /** No member on a public route. */
  member: null;
  /** No key on a public route. */
  key: null;
  /** `page` / `per_page` of the query, resolved. */
  page: PageRequest;
  /** Envelope builders. */
  respond: Responder;
}

/** An event as a subscription handler receives it (typed per action with `wpk types`). */
export interface DeliveredEvent<A extends string = string, P extends object = Record<string, unknown>> {
  /** The action, e.g. `core.tasks.task.created`. */
  action: A;
  /** The payload (validated, redacted). */
  payload: P;
  /** The metadata; `workspace_id` is always there. */
  metadata: Record<string, unknown> & { workspace_id: string };
  /** The delivery id (`x-broker-event-id`). */
  deliveryId?: string;
  /** The attempt number (`x-broker-delivery-attempt`). */
  attempt?: number;
}

/** The context of a subscription handler: scoped to the event's workspace, no caller. */
export type EventContext<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> = BaseContext<M, T>;
