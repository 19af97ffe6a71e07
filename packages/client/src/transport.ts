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
  /** Read the answer as bytes (`bytes`) rather than text: a file (a PDF, a CSV). */
  binary?: boolean;
}

/** What a transport got back. */
export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  /** The answer's text; for a `binary` request, the text of a JSON answer only (a refusal), else empty. */
  body: string;
  /** The answer's bytes, for a `binary` request. */
  bytes?: Uint8Array;
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
    if (!request.binary) return { status: response.status, headers: answered, body: await response.text() };
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: answered, body: jsonText(answered['content-type'], bytes), bytes };
  } finally {
    clearTimeout(timer);
  }
};

/** The text of a JSON answer read as bytes (a refusal of a file request), else empty. */
export function jsonText(contentType: string | string[] | undefined, bytes: Uint8Array): string {
  return /json/.test(String(contentType ?? '')) ? new TextDecoder().decode(bytes) : '';
}
