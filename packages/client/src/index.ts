import got, { type Got, type Method } from 'got';

/** The API version this client is written against. */
export const API_VERSION = '2026-11-01';

/** One resource, as every GET of a single resource answers. */
export interface Single<T> {
  data: T;
  links: { self: string } & Record<string, string>;
}

/** One page of a collection. */
export interface Collection<T> {
  data: T[];
  pagination: { page: number; per_page: number; total: number; pages: number };
  links: { self: string; first: string; last: string; next: string | null; prev: string | null };
}

/** An answer other than 2xx: `status` and the server's `{"error"}` message. */
export class ApiError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** How to reach a workspace. */
export interface ClientOptions {
  /** The workspace's base URL, e.g. `https://acme.example.com`. */
  baseUrl: string;
  /** A workspace API key (`slk_...`). */
  apiKey?: string;
  /** Overrides the `X-Api-Version` sent (defaults to the version this client targets). */
  apiVersion?: string;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
}

/** A minimal typed client: envelopes, errors and pagination; endpoint helpers build on it. */
export class WorkspaceClient {
  private readonly http: Got;

  constructor(options: ClientOptions) {
    this.http = got.extend({
      prefixUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: {
        'x-api-version': options.apiVersion ?? API_VERSION,
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      timeout: { request: options.timeoutMs ?? 30_000 },
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
  }

  /** Sends one request and returns the parsed body; throws ApiError on a non-2xx answer. */
  async request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const response = await this.http(path.replace(/^\/+/, ''), { method, ...(body === undefined ? {} : { json: body }) });
    const text = response.body;
    const parsed = text ? JSON.parse(text) : undefined;
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const message = parsed && typeof parsed.error === 'string' ? parsed.error : `HTTP ${response.statusCode}`;
      throw new ApiError(response.statusCode, message);
    }
    return parsed as T;
  }

  /** GET of one resource. */
  get<T>(path: string): Promise<Single<T>> {
    return this.request<Single<T>>('GET', path);
  }

  /** GET of one page of a collection. */
  list<T>(path: string): Promise<Collection<T>> {
    return this.request<Collection<T>>('GET', path);
  }

  /** Every item of a collection, following `links.next` until it is null. */
  async *paginate<T>(path: string): AsyncGenerator<T> {
    let next: string | null = path;
    while (next) {
      const page: Collection<T> = await this.list<T>(next);
      yield* page.data;
      next = page.links.next;
    }
  }
}
