import type { Request, ResponseObject } from '@hapi/hapi';
import { API_VERSIONS, clientAddressOf } from '../server/index.js';

/** What a page got back from the JSON API. */
export interface ApiAnswer<T = unknown> {
  status: number;
  /** The parsed JSON body (`{data, ...}` on success, `{error}` on failure, with `field` when one input is refused). */
  body: T & { error?: string; field?: string };
  /** Cookies the API set (a new session, a cleared one): the page passes them on. */
  setCookies: string[];
}

/**
 * Calls the platform's own JSON API for a page, in process (`server.inject`), as the browser:
 * same Host, same cookie, same client address, same Origin and Sec-Fetch-Site. Every screen therefore goes through the very
 * route, validation, five access layers, transaction and events an API client does; a page
 * never reaches a service by a looser path.
 */
export async function callApi<T = unknown>(request: Request, method: string, url: string, payload?: object): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {
    host: String(request.headers.host ?? request.info.host),
    'x-api-version': API_VERSIONS[API_VERSIONS.length - 1].date,
  };
  if (typeof request.headers.cookie === 'string') headers.cookie = request.headers.cookie;
  if (typeof request.headers['user-agent'] === 'string') headers['user-agent'] = request.headers['user-agent'];
  // What the browser said about where the page's request came from: the API judges CSRF on it again.
  for (const name of ['origin', 'sec-fetch-site']) if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const answer = await request.server.inject({ method, url, headers, payload: payload === undefined ? undefined : JSON.stringify(payload), remoteAddress: clientAddressOf(request) });
  const raw = answer.headers['set-cookie'];
  const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
  let body: T & { error?: string };
  try {
    body = answer.payload ? JSON.parse(answer.payload) : ({} as T);
  } catch {
    body = { error: 'Unexpected answer' } as T & { error?: string };
  }
  return { status: answer.statusCode, body, setCookies };
}

/** Passes the cookies an API answer set on to the browser's answer. */
export function forwardCookies(response: ResponseObject, answer: ApiAnswer): ResponseObject {
  for (const cookie of answer.setCookies) response.header('set-cookie', cookie, { append: true });
  return response;
}

/** True for a 2xx answer. */
export function ok(answer: ApiAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}
