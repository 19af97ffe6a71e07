/** One HTTP request as a transport sends it. */
export interface TransportRequest {
  method: string;
  /** The absolute URL, query included. */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The JSON text of the body, when there is one. */
  body?: string;
  timeoutMs: number;
}

/** What a transport got back. */
export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request and answers its status, headers and text; never throws for an HTTP status. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/**
 * The browser's transport: `fetch`, never with cookies (`credentials: 'omit'`): a browser client
 * is authenticated by its bearer token only (an app's bridge token).
 */
export const fetchTransport: Transport = async (request) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    // Browsers refuse to set Host themselves: a browser client reaches its workspace by its own URL.
    const { host: _host, ...headers } = request.headers;
    const response = await fetch(request.url, { method: request.method, headers, body: request.body, credentials: 'omit', signal: controller.signal });
    const answered: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answered[name] = value;
    });
    return { status: response.status, headers: answered, body: await response.text() };
  } finally {
    clearTimeout(timer);
  }
};
