import { isUtf8 } from 'node:buffer';
import type { Lifecycle, Request, ResponseToolkit, Server } from '@hapi/hapi';
import * as podium from '@hapi/podium';
import { findUnstorableText, TEXT_RULE } from '@wpk/sdk';
import { refuseField } from './errors.js';

// Params and query are flat maps: a finding is a parameter's name (the root itself never is).
const ROOT = '(parameters)';
const JSON_MEDIA = /^application\/(?:.+\+)?json\s*(;|$)/i;

/** The raw bytes of each JSON body being parsed, as hapi read them (before its UTF-8 decoding). */
const rawBodies = new WeakMap<Request, Buffer[]>();

/** The runs of bytes that are not UTF-8 (each as the decoder replaces it by one U+FFFD). */
function invalidRuns(bytes: Buffer): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    let next = index + 1;
    if (length > 0) {
      // The second byte's range is narrower after E0, ED, F0 and F4 (no overlongs, surrogates or values past U+10FFFF).
      const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
      const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
      while (next < index + length && next < bytes.length) {
        const byte = bytes[next]!;
        if (next === index + 1 ? byte < low || byte > high : byte < 0x80 || byte > 0xbf) break;
        next += 1;
      }
      if (next === index + length) {
        index = next;
        continue;
      }
    }
    runs.push([index, next]);
    index = next;
  }
  return runs;
}

/**
 * Where in a JSON body its bytes that are not UTF-8 are: each run becomes an escaped NUL (runs
 * of bytes over 0x7F sit inside strings, or the body would not have parsed), and the text rule's
 * walk names the first field holding one (`where`, for the message; `field`, for the answer).
 */
function fieldWithInvalidUtf8(bytes: Buffer): { where: string; field: string | undefined } {
  const parts: Buffer[] = [];
  let from = 0;
  for (const [start, end] of invalidRuns(bytes)) {
    parts.push(bytes.subarray(from, start), Buffer.from('\\u0000'));
    from = end;
  }
  parts.push(bytes.subarray(from));
  try {
    const body: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
    const where = findUnstorableText(body, 'body');
    return where ? { where, field: bodyField(body, where) } : { where: 'body', field: undefined };
  } catch {
    return { where: 'body', field: undefined };
  }
}

/**
 * The refusal's `field` for a finding in a body: the finding itself when the body is an object
 * (then it is a key's path, even a key called `body`); none for the body itself, an array body's
 * items or a key (`keys of ...`).
 */
function bodyField(body: unknown, finding: string): string | undefined {
  const object = typeof body === 'object' && body !== null && !Array.isArray(body);
  return object && !finding.startsWith('keys of ') ? finding : undefined;
}

// (`validate` is exported by Podium but absent from its type declarations.)
const { Podium, validate } = podium as typeof podium & { validate(events: podium.Podium.Event<string>[]): podium.Podium.Event<string>[] };

/** A request's events as hapi declares them (`finish`, `peek`, `disconnect`; hapi/lib/request.js), checked once here. */
const REQUEST_EVENTS = validate(['finish', { name: 'peek', spread: true }, 'disconnect']);

const bytesOf = (chunk: Buffer | string) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));

/**
 * A request's event emitter that also keeps the body's bytes as hapi reads them: hapi taps the
 * body when its emitter has `peek` listeners, and emits `peek` for each chunk. Made here, instead
 * of listening on hapi's `request.events`, because hapi builds that emitter with Podium checking
 * its three declarations again on every request and Podium checks each listener: ~40 µs and
 * ~25 kB of garbage per JSON write (`BENCH_ONLY='platform write'` profile; docs/decisions/0329-request-emitter.md).
 * Podium lets an emitter skip the check for declarations `validate` returned.
 */
class RawBodyEvents extends Podium {
  readonly chunks: Buffer[] = [];

  constructor() {
    super(REQUEST_EVENTS, { validate: false });
  }

  override hasListeners(name: string): boolean {
    return name === 'peek' || super.hasListeners(name);
  }

  override emit(criteria: podium.Podium.EmitCriteria<string>, data?: unknown): void {
    if (criteria === 'peek') this.chunks.push(bytesOf((data as [Buffer | string])[0]));
    super.emit(criteria, data);
  }
}

/** Keeps a copy of a JSON body's bytes as hapi reads them (its `peek` event), for the check below. */
function keepRawJsonBody(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
  // Any method whose route parses a body (a DELETE may carry a confirmation).
  if (request.route.settings.payload?.parse === true && JSON_MEDIA.test(String(request.headers['content-type'] ?? ''))) {
    const internal = request as unknown as { _events?: podium.Podium | null };
    if (internal._events === null) {
      // hapi has not made the request's emitter yet (it makes it on first use): this one is it.
      const events = new RawBodyEvents();
      internal._events = events;
      rawBodies.set(request, events.chunks);
    } else {
      const chunks: Buffer[] = [];
      rawBodies.set(request, chunks);
      request.events.on('peek', (chunk: Buffer | string) => chunks.push(bytesOf(chunk)));
    }
  }
  return h.continue;
}

/**
 * The server-wide safety net of the text rule: before any route's validation runs, a path
 * parameter, query parameter or JSON body holding NUL or an unpaired surrogate (anywhere, keys
 * included) answers 400 naming it. Routes refuse the same through the SDK's `Joi.string()`; this
 * covers the route that validates by hand or not at all, so none can reach the database with text
 * PostgreSQL cannot store (a 500) or that Sequelize's escaping rewrites (NUL becomes `\0`). A JSON
 * body whose bytes are not UTF-8 answers 400 naming the field too: the parser would have rewritten
 * them to U+FFFD, storing something the client never sent.
 */
export function refuseUnstorableText(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
  const inPath = findUnstorableText(request.params, ROOT);
  if (inPath) throw refuseField(`path parameter ${inPath} ${TEXT_RULE}`, fieldOf(inPath));
  const inQuery = findUnstorableText(request.query, ROOT);
  if (inQuery) throw refuseField(`${inQuery === `keys of ${ROOT}` ? 'query parameter names' : `query parameter ${inQuery}`} ${TEXT_RULE}`, fieldOf(inQuery));
  const inBody = findUnstorableText(request.payload, 'body');
  if (inBody) throw refuseField(`${inBody} ${TEXT_RULE}`, bodyField(request.payload, inBody));
  const raw = rawBodies.get(request);
  if (raw && raw.length > 0) {
    const bytes = Buffer.concat(raw);
    if (!isUtf8(bytes)) {
      const { where, field } = fieldWithInvalidUtf8(bytes);
      throw refuseField(`${where} must be UTF-8 text: the body holds bytes that are not UTF-8`, field);
    }
  }
  return h.continue;
}

/** The refusal's `field` for a parameter: its name, none for a parameter's name (`keys of ...`). */
function fieldOf(finding: string): string | undefined {
  return finding.startsWith('keys of ') ? undefined : finding;
}

/** Installs the text rule's safety net (after authentication, when the body has been parsed). */
export function installTextGuard(server: Server): void {
  server.ext('onPreAuth', keepRawJsonBody);
  server.ext('onPostAuth', refuseUnstorableText);
}
