import type { components, operations } from './generated/api.js';
import { API_VERSION, OPERATIONS, RELEASED_API_VERSIONS, TAGS } from './generated/operations.js';
import type { OperationEntry } from './operation-entry.js';
import type { Transport, TransportResponse } from './transport.js';

export { API_VERSION, OPERATIONS, RELEASED_API_VERSIONS, TAGS };
export type { components, operations, paths } from './generated/api.js';

/** One resource, as the platform answers it. */
export type Single<T = Record<string, unknown>> = { data: T; links: { self: string } & Record<string, string> };

/** One page of a collection. */
export type Collection<T = unknown> = { data: T[]; pagination: components['schemas']['Pagination']; links: components['schemas']['CollectionLinks'] };

/** The answer as one resource (`data` an object); throws a TypeError when it is a collection. */
export function asSingle<T = Record<string, unknown>>(answer: unknown): Single<T> {
  const envelope = answer as Single<T> | null;
  if (!envelope || typeof envelope.data !== 'object' || envelope.data === null || Array.isArray(envelope.data) || !envelope.links) throw new TypeError('The answer is not a single-resource envelope');
  return envelope;
}

/** The answer as one page of a collection; throws a TypeError when it is not one. */
export function asCollection<T = unknown>(answer: unknown): Collection<T> {
  const envelope = answer as Collection<T> | null;
  if (!envelope || !Array.isArray(envelope.data) || !envelope.pagination || !envelope.links) throw new TypeError('The answer is not a collection envelope');
  return envelope;
}

/** The id of an operation of the document (`getTasks`, `postApiKeys`, ...). */
export type OperationId = keyof typeof OPERATIONS & keyof operations;

type Op<K extends OperationId> = operations[K];
type IsNever<T> = [T] extends [never] ? true : false;
type PathOf<K extends OperationId> = Op<K> extends { parameters: { path: infer P } } ? P : never;
type QueryOf<K extends OperationId> = NonNullable<Op<K> extends { parameters: { query?: infer Q } } ? Q : never>;
type BodyOf<K extends OperationId> = Op<K> extends { requestBody?: { content: infer C } } ? C[keyof C] : never;

/** What one operation takes: `params` (path), `query`, `body`, each only when it has them. */
export type OperationInput<K extends OperationId> = (IsNever<PathOf<K>> extends true ? { params?: undefined } : { params: PathOf<K> }) &
  (IsNever<QueryOf<K>> extends true ? { query?: undefined } : { query?: QueryOf<K> }) &
  (IsNever<BodyOf<K>> extends true ? { body?: undefined } : { body?: BodyOf<K> });

/** What one operation answers on success (the envelope, for every API operation). */
export type OperationResult<K extends OperationId> = Op<K> extends { responses: { 200: { content: infer C } } } ? C[keyof C] : unknown;

type Args<K extends OperationId> = Record<string, never> extends OperationInput<K> ? [input?: OperationInput<K>] : [input: OperationInput<K>];

/** The operations of one tag (an app namespace, `account` for the platform, `system`). */
export type OperationGroup<T extends string> = {
  [K in OperationId as (typeof OPERATIONS)[K]['tag'] extends T ? K : never]: (...args: Args<K>) => Promise<OperationResult<K>>;
};

/** One method per operation, grouped by tag: `client.tasks.getTasks()`, `client.account.getMembers()`. */
export type OperationGroups = { [T in (typeof TAGS)[number]]: OperationGroup<T> };

/** An answer other than 2xx: the status, the server's `error` text, and the body and headers. */
export class ApiError extends Error {
  /** The input the refusal is about (the body's `field`: `title`, `items[0].amount`), or null when it names none. */
  readonly field: string | null;

  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The `error` text of the body (or `HTTP {status}` when the body has none). */
    readonly error: string,
    /** The parsed body. */
    readonly body: unknown,
    /** Response headers (lower-case names). */
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(error);
    this.name = 'ApiError';
    const field = body && typeof body === 'object' ? (body as { field?: unknown }).field : undefined;
    this.field = typeof field === 'string' ? field : null;
  }
}

/** True for an ApiError, optionally of one status. */
export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** How to reach the platform. */
export interface ClientOptions {
  /** Where to connect: `http://127.0.0.1:3000`, or a workspace's own URL `https://acme.example.com`. */
  baseUrl: string;
  /**
   * The workspace's subdomain. Requests then carry `Host: {workspace}.{baseDomain}` while the
   * connection goes to `baseUrl`: a workspace is reached without DNS (`*.localhost` does not
   * resolve in Node). Base-domain operations (sign-up) carry `Host: {baseDomain}`.
   */
  workspace?: string;
  /** The platform's base domain (default: `baseUrl`'s host name unless it is an IP, else `localhost`). */
  baseDomain?: string;
  /** A workspace API key (`slk_...`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /**
   * A bearer token read before every request (an app's bridge token, which the shell renews):
   * sent as `Authorization: Bearer`; ignored when `apiKey` is given.
   */
  token?: () => string | null | Promise<string | null>;
  /** How requests leave: `got` in Node (the default of `@wpk/client`), `fetch` in browsers (`@wpk/client/browser`). */
  transport?: Transport;
  /** The `X-Api-Version` every request of this client sends (default: the version it was generated for). */
  apiVersion?: string;
  /** Extra headers on every request (a session `cookie`, for instance). */
  headers?: Record<string, string>;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /**
   * Retries of an answer 429, or of a 503 with `Retry-After` (a busy server) to a GET, HEAD, PUT or
   * DELETE, each after the `Retry-After` it carries (default 2; 0 turns retrying off).
   */
  maxRetries?: number;
  /** The longest `Retry-After` waited for, in seconds; a longer one fails at once (default 60). */
  maxRetryAfterSeconds?: number;
}

// A busy server's 503 refused the request before doing anything, but only these may safely be sent twice.
const IDEMPOTENT: ReadonlySet<Method> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

const IP = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\])$/i;

function retryAfterSeconds(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What `request` and `download` take besides the method and path. */
export interface RequestOptions {
  body?: unknown;
  query?: Record<string, unknown>;
  host?: OperationEntry['host'];
}

/** A file answer: its bytes, content type and suggested file name. */
export interface DownloadedFile {
  bytes: Uint8Array;
  contentType: string;
  /** From `Content-Disposition` (`filename*=` preferred); null when the answer names none. */
  filename: string | null;
}

/** The body of an answer: parsed JSON when it says it is JSON, else its text (undefined when empty). */
function parseBody(response: TransportResponse): unknown {
  const text = response.body;
  return text && /json/.test(String(response.headers['content-type'])) ? JSON.parse(text) : text || undefined;
}

/** The file name a `Content-Disposition` header suggests (RFC 6266: `filename*` before `filename`). */
export function dispositionFilename(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(value);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // A malformed encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(value);
  if (!plain) return null;
  return (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]).trim() || null;
}

/** An HTTP method the platform answers. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** The platform's API over a transport: raw requests, every operation by id, and pagination. */
export class WorkspaceClient {
  private readonly transport: Transport;
  private readonly options: ClientOptions;
  private readonly baseDomain: string;
  private readonly prefix: string;
  /** The `X-Api-Version` this client sends. */
  readonly apiVersion: string;

  constructor(options: ClientOptions & { transport: Transport }) {
    this.options = options;
    this.transport = options.transport;
    const url = new URL(options.baseUrl);
    this.prefix = options.baseUrl.replace(/\/+$/, '');
    this.baseDomain = (options.baseDomain ?? (IP.test(url.hostname) ? 'localhost' : url.hostname)).toLowerCase();
    this.apiVersion = options.apiVersion ?? API_VERSION;
  }

  private async headersFor(host: string | undefined, hasBody: boolean): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...this.options.headers, 'x-api-version': this.apiVersion };
    const bearer = this.options.apiKey ?? (this.options.token ? await this.options.token() : null);
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (host) headers.host = host;
    if (hasBody) headers['content-type'] = 'application/json';
    return headers;
  }

  private hostFor(host: OperationEntry['host']): string | undefined {
    if (!this.options.workspace) return host === 'platform' && this.options.baseDomain ? this.baseDomain : undefined;
    return host === 'platform' ? this.baseDomain : `${this.options.workspace}.${this.baseDomain}`;
  }

  /**
   * Sends one request and returns the parsed body; throws ApiError on an answer other than 2xx.
   * A 429, and a 503 with `Retry-After` to an idempotent method, is retried after its `Retry-After` (up to `maxRetries` times).
   */
  async request<T = unknown>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.exchange(method, path, options, false);
    return parseBody(response) as T;
  }

  /**
   * Reads a file answer (a quote's PDF, a CSV export) as bytes, with its content type and the file
   * name its `Content-Disposition` gives (null when it gives none). Refusals throw ApiError as
   * `request` does. `await client.download('GET', '/crm/quotes/1/pdf')`.
   */
  async download(method: Method, path: string, options: RequestOptions = {}): Promise<DownloadedFile> {
    const response = await this.exchange(method, path, options, true);
    const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
    return { bytes: response.bytes ?? new Uint8Array(), contentType, filename: dispositionFilename(response.headers['content-disposition']) };
  }

  /** One request with the 429 (and busy 503) retries; the 2xx answer, or an ApiError. */
  private async exchange(method: Method, path: string, options: RequestOptions, binary: boolean): Promise<TransportResponse> {
    const searchParams = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) searchParams.append(name, String(item));
    }
    const host = this.hostFor(options.host ?? 'workspace');
    const maxRetries = this.options.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const query = searchParams.size ? `?${searchParams}` : '';
      const response = await this.transport({
        method,
        url: `${this.prefix}/${path.replace(/^\/+/, '')}${query}`,
        headers: await this.headersFor(host, options.body !== undefined),
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        timeoutMs: this.options.timeoutMs ?? 30_000,
        ...(binary ? { binary } : {}),
      });
      if (response.status >= 200 && response.status < 300) return response;
      const retryable = response.status === 429 || (response.status === 503 && IDEMPOTENT.has(method));
      const wait = retryable ? retryAfterSeconds(response.headers['retry-after']) : null;
      if (wait !== null && attempt < maxRetries && wait <= (this.options.maxRetryAfterSeconds ?? 60)) {
        await sleep(wait * 1000);
        continue;
      }
      const parsed = parseBody(response);
      const message = parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string' ? (parsed as { error: string }).error : `HTTP ${response.status}`;
      throw new ApiError(response.status, message, parsed, response.headers);
    }
  }

  /** Calls one operation by its id: path parameters filled in, query and body sent, the envelope returned. */
  call<K extends OperationId>(operationId: K, ...[input]: Args<K>): Promise<OperationResult<K>> {
    return this.send<OperationResult<K>>(operationId, input);
  }

  /** Sends one operation's request (path parameters filled in, query and body) and reads its answer as `T`. */
  private send<T>(operationId: OperationId, input: unknown): Promise<T> {
    const entry: OperationEntry = OPERATIONS[operationId];
    if (!entry) throw new TypeError(`Unknown operation ${String(operationId)}`);
    const given = (input ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const path = entry.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const value = given.params?.[name];
      if (value === undefined || value === null) throw new TypeError(`${String(operationId)}: path parameter ${name} is required`);
      return encodeURIComponent(String(value));
    });
    return this.request<T>(entry.method, path, { body: given.body, query: given.query, host: entry.host });
  }

  /**
   * Every item of a collection: calls a GET operation, then follows `links.next` until it is null.
   * `for await (const task of client.paginate('getTasks', { query: { board_id } }))`.
   */
  async *paginate<K extends OperationId>(operationId: K, ...[input]: Args<K>): AsyncGenerator<CollectionItem<K>> {
    const entry: OperationEntry = OPERATIONS[operationId];
    if (entry.method !== 'GET') throw new TypeError(`${String(operationId)} is not a GET operation`);
    let page = await this.send<Collection<CollectionItem<K>>>(operationId, input);
    for (;;) {
      if (!page || !Array.isArray(page.data) || !page.links || !('next' in page.links)) throw new TypeError(`${String(operationId)} did not answer a collection`);
      yield* page.data;
      if (!page.links.next) return;
      page = await this.request<Collection<CollectionItem<K>>>('GET', page.links.next, { host: entry.host });
    }
  }
}

/** The item type of a collection an operation answers. */
export type CollectionItem<K extends OperationId> = OperationResult<K> extends infer R ? (R extends { data: Array<infer I> } ? I : unknown) : unknown;

/** A client with one method per operation, grouped by tag. */
export type Client = WorkspaceClient & OperationGroups;

/** Adds one method per operation, grouped by tag, to a client (`createClient` of each entry point). */
export function withOperationGroups(client: WorkspaceClient): Client {
  const groups: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const [operationId, entry] of Object.entries(OPERATIONS) as Array<[OperationId, OperationEntry]>) {
    groups[entry.tag] ??= {};
    groups[entry.tag][operationId] = (input?: unknown) => client.call(operationId, ...([input] as Args<typeof operationId>));
  }
  // The groups are built from the OPERATIONS table at run time; the compiler cannot follow the loop
  // to the mapped type OperationGroups, so this cast stays.
  return Object.assign(client, groups) as unknown as Client;
}
