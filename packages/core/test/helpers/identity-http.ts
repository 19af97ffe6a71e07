import http from 'node:http';

/** An HTTP answer, body read. */
export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
  /** `Set-Cookie` lines. */
  cookies: string[];
}

export interface HttpRequest {
  host: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** JSON body (sets Content-Type) or raw bytes (set the type in headers). */
  json?: unknown;
  raw?: Buffer | string;
}

/** One real HTTP request to the runtime, with any Host header. */
export function send(baseUrl: string, request: HttpRequest): Promise<HttpAnswer> {
  const url = new URL(request.path, baseUrl);
  const headers: Record<string, string> = { host: request.host, ...(request.headers ?? {}) };
  let payload: Buffer | undefined;
  if (request.json !== undefined) {
    payload = Buffer.from(JSON.stringify(request.json));
    headers['content-type'] ??= 'application/json';
  } else if (request.raw !== undefined) {
    payload = Buffer.isBuffer(request.raw) ? request.raw : Buffer.from(request.raw);
  }
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: request.method ?? 'GET', headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
        const setCookie = incoming.headers['set-cookie'];
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, body, cookies: Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [] });
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    if (payload) outgoing.write(payload);
    outgoing.end();
  });
}

/** Parses one Set-Cookie line into its name, value and attributes (lower-cased names). */
export function parseSetCookie(line: string): { name: string; value: string; attributes: Record<string, string | true> } {
  const [pair, ...rest] = line.split(';').map((part) => part.trim());
  const index = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const attribute of rest) {
    const at = attribute.indexOf('=');
    if (at === -1) attributes[attribute.toLowerCase()] = true;
    else attributes[attribute.slice(0, at).toLowerCase()] = attribute.slice(at + 1);
  }
  return { name: pair.slice(0, index), value: pair.slice(index + 1), attributes };
}

/**
 * A browser-like client: keeps the session cookie it is given (as set on the cookie domain, so
 * every subdomain gets it) and sends it on every request unless told not to, with the API
 * version header and `Sec-Fetch-Site: same-origin` (pass `''` to leave it out). Calls go to `{subdomain}.{baseDomain}` (the Host header).
 */
export class Browser {
  readonly jar = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly baseDomain = 'localhost',
    private readonly version = '2026-11-01',
  ) {}

  async call(subdomain: string | null, method: string, path: string, options: { json?: unknown; raw?: Buffer; headers?: Record<string, string>; withCookies?: boolean } = {}): Promise<HttpAnswer> {
    // Like a browser, it says where a request comes from (a page of its own site) unless told otherwise.
    const headers: Record<string, string> = { 'x-api-version': this.version, 'sec-fetch-site': 'same-origin', ...(options.headers ?? {}) };
    // An empty value means "do not send this header".
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    if (options.withCookies !== false && this.jar.size > 0) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await send(this.baseUrl, { host: subdomain ? `${subdomain}.${this.baseDomain}` : this.baseDomain, method, path, headers, json: options.json, raw: options.raw });
    for (const line of answer.cookies) {
      const cookie = parseSetCookie(line);
      const expired = cookie.attributes['max-age'] === '0' || (typeof cookie.attributes.expires === 'string' && Date.parse(cookie.attributes.expires) <= Date.now());
      if (expired || cookie.value === '') this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    return answer;
  }

  get(subdomain: string | null, path: string, headers?: Record<string, string>) {
    return this.call(subdomain, 'GET', path, { headers });
  }

  post(subdomain: string | null, path: string, json?: unknown, headers?: Record<string, string>) {
    return this.call(subdomain, 'POST', path, { json, headers });
  }

  put(subdomain: string | null, path: string, json?: unknown, headers?: Record<string, string>) {
    return this.call(subdomain, 'PUT', path, { json, headers });
  }

  patch(subdomain: string | null, path: string, json?: unknown, headers?: Record<string, string>) {
    return this.call(subdomain, 'PATCH', path, { json, headers });
  }

  delete(subdomain: string | null, path: string, json?: unknown, headers?: Record<string, string>) {
    return this.call(subdomain, 'DELETE', path, { json, headers });
  }

  /** The session cookie's value, if any. */
  get session(): string | undefined {
    return this.jar.get('wpk_session');
  }
}
