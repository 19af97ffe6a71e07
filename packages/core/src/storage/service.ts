import { randomUUID, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { InvalidError, NotFoundError, PayloadTooLargeError, type AppStorage, type SignedDownloadOptions, type SignedUploadOptions, type SignedUrl, type StorageBody, type StoredObject, type StoredObjectStream, type StoragePutOptions } from '@wpk/sdk';
import type { Logger } from 'pino';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { publicOrigin } from '../tenancy/index.js';
import { decideContentType, normalizeMediaType, SNIFF_BYTES } from './content-type.js';
import type { StorageDriver } from './drivers/driver.js';
import { checkKey } from './keys.js';
import { LinkSigner, type LinkClaims } from './signed-urls.js';

/** The namespace of the platform's own objects (avatars); no app can have it (reserved slug). */
export const PLATFORM_NAMESPACE = 'platform';

/** Default and longest lifetime of a signed link, in seconds. */
export const LINK_DEFAULT_SECONDS = 300;
export const LINK_MAX_SECONDS = 7 * 24 * 3600;

/** What the storage service is built from. */
export interface StorageServiceOptions {
  driver: StorageDriver;
  sequelize: Sequelize;
  /** `STORAGE_MAX_OBJECT_BYTES`. */
  maxObjectBytes: number;
  /** The platform's secret key; link signatures are derived from it. */
  secret: string;
  /** `PUBLIC_URL`: links are absolute URLs on the workspace's public origin. */
  publicUrl: string;
  logger: Logger;
  /** The runtime's clock (links expire by it; default the wall clock). */
  clock?: () => Date;
}

/** Who owns the objects a handle reaches: one workspace, one namespace. */
export interface StorageScope {
  workspaceId: string;
  /** The workspace's subdomain (signed links are served on it). */
  subdomain: string;
  /** An app's namespace (`tasks`, `ext.acme.hello`) or `platform`. */
  namespace: string;
}

interface ObjectRow {
  blob: string;
  size_bytes: string | number;
  content_type: string;
  sha256: string;
  updated_at: Date;
}

/**
 * The blobs one unit of work wrote and replaced. On commit the replaced (and deleted) blobs go;
 * when the unit ends without a commit the ones it wrote go, so a failed request leaves the
 * previous object in place and nothing behind.
 */
export class StorageUnit {
  private readonly written: string[] = [];
  private readonly dropped: string[] = [];
  private committed = false;
  private removing: Promise<void> = Promise.resolve();
  private hooked = new WeakSet<Transaction>();

  constructor(private readonly driver: StorageDriver, private readonly logger: Logger) {}

  /** Called with each blob written, and the transaction its row was written in. */
  wrote(blob: string, transaction: Transaction | null): void {
    this.written.push(blob);
    this.hook(transaction);
  }

  /** Called with each blob no longer referenced once the transaction commits. */
  drop(blob: string, transaction: Transaction | null): void {
    this.dropped.push(blob);
    this.hook(transaction);
  }

  private hook(transaction: Transaction | null): void {
    if (!transaction) {
      // No transaction: the row is already written for good (`finish()` waits for the removals).
      void this.commit();
      return;
    }
    if (this.hooked.has(transaction)) return;
    this.hooked.add(transaction);
    transaction.afterCommit(() => this.commit());
  }

  // Sequelize awaits after-commit hooks: the transaction's caller goes on once the blobs are gone.
  private commit(): Promise<void> {
    this.committed = true;
    this.written.length = 0;
    const blobs = this.dropped.splice(0);
    this.removing = this.removing.then(() => this.remove(blobs));
    return this.removing;
  }

  /** Ends the unit: after a commit, waits for the replaced blobs to go; without one, removes the blobs it wrote (best effort, logged). */
  async finish(): Promise<void> {
    if (this.committed) {
      await this.removing;
      return;
    }
    this.dropped.length = 0;
    await this.remove(this.written.splice(0));
  }

  private async remove(blobs: string[]): Promise<void> {
    for (const blob of blobs) {
      try {
        await this.driver.delete(blob);
      } catch (error) {
        this.logger.warn({ err: error, blob }, 'storage: removing an unreferenced blob failed; it stays until removed by hand');
      }
    }
  }
}

function toChunks(body: StorageBody): AsyncIterator<Uint8Array | string> {
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const single = [body];
    return single[Symbol.iterator]() as unknown as AsyncIterator<Uint8Array>;
  }
  if (body && typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function') return (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  throw new TypeError('storage put: the body must be a Buffer, a Uint8Array, a string or a readable stream');
}

const asBuffer = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The file is larger than ${limit} bytes, the most this upload accepts`);
}

/** Reads the head of a body (for sniffing), then streams head and rest through a counter and a hash. */
async function measured(body: StorageBody, limit: number): Promise<{ head: Buffer; stream: Readable; done: () => { size: number; sha256: string; overflow: boolean } }> {
  const chunks = toChunks(body);
  const parts: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = asBuffer(next.value);
    parts.push(chunk);
    headLength += chunk.length;
    if (headLength > limit) throw tooLarge(limit);
  }
  const head = Buffer.concat(parts);
  const hash = createHash('sha256');
  let size = 0;
  let overflow = false;
  async function* all(): AsyncGenerator<Buffer> {
    size += head.length;
    hash.update(head);
    if (head.length > 0) yield head;
    if (ended) return;
    for (;;) {
      const next = await chunks.next();
      if (next.done) return;
      const chunk = asBuffer(next.value);
      size += chunk.length;
      if (size > limit) {
        overflow = true;
        throw tooLarge(limit);
      }
      hash.update(chunk);
      yield chunk;
    }
  }
  return { head, stream: Readable.from(all(), { objectMode: false }), done: () => ({ size, sha256: hash.digest('hex'), overflow }) };
}

function describe(key: string, row: ObjectRow): StoredObject {
  return { key, size_bytes: Number(row.size_bytes), content_type: row.content_type, sha256: row.sha256, updated_at: new Date(row.updated_at) };
}

function lifetime(seconds: number | undefined): number {
  const value = seconds ?? LINK_DEFAULT_SECONDS;
  if (!Number.isInteger(value) || value < 1 || value > LINK_MAX_SECONDS) throw new InvalidError(`expiresInSeconds: must be an integer from 1 to ${LINK_MAX_SECONDS} (seven days)`);
  return value;
}

/**
 * File storage for the whole platform: object rows in `platform.storage_objects` (one per
 * workspace, namespace and key), bytes in the driver under a fresh blob name per write, signed
 * links. `scope(...)` hands out the handle an app gets as `ctx.storage`.
 */
export class StorageService {
  readonly signer: LinkSigner;

  constructor(private readonly options: StorageServiceOptions) {
    this.signer = new LinkSigner(options.secret);
  }

  /** The driver (`local` or `s3`). */
  get driver(): StorageDriver {
    return this.options.driver;
  }

  /** `STORAGE_MAX_OBJECT_BYTES`. */
  get maxObjectBytes(): number {
    return this.options.maxObjectBytes;
  }

  /** A unit of work's blob bookkeeping; end it with `finish()`. */
  unit(): StorageUnit {
    return new StorageUnit(this.options.driver, this.options.logger);
  }

  /** The handle of one workspace and namespace (`ctx.storage`); writes are tracked by `unit` when given. */
  scope(scope: StorageScope, unit?: StorageUnit): AppStorage {
    return scopedStorage(this, scope, unit ?? null);
  }

  /** The transaction the caller runs in (Sequelize's AsyncLocalStorage), if any. */
  currentTransaction(): Transaction | null {
    const cls = (this.options.sequelize.constructor as unknown as { _cls?: { get(key: string): unknown } })._cls;
    return (cls?.get('transaction') as Transaction | undefined) ?? null;
  }

  /** The row of an object. */
  async row(scope: StorageScope, key: string): Promise<ObjectRow | null> {
    const rows = await this.options.sequelize.query<ObjectRow>(
      `SELECT blob, size_bytes, content_type, sha256, updated_at FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = :ns AND key = :key`,
      { type: QueryTypes.SELECT, replacements: { ws: scope.workspaceId, ns: scope.namespace, key } },
    );
    return rows[0] ?? null;
  }

  /** Writes the bytes to a new blob, then points the key's row at it (replacing the previous one). */
  async put(scope: StorageScope, key: string, body: StorageBody, options: StoragePutOptions, unit: StorageUnit | null): Promise<StoredObject> {
    checkKey(key);
    let declared: string | undefined;
    if (options.contentType !== undefined) {
      const normalized = typeof options.contentType === 'string' ? normalizeMediaType(options.contentType) : null;
      if (!normalized) throw new InvalidError(`contentType: ${JSON.stringify(options.contentType)} is not a media type (type/subtype)`);
      declared = normalized;
    }
    if (options.maxBytes !== undefined && (!Number.isInteger(options.maxBytes) || options.maxBytes < 0)) throw new InvalidError('maxBytes: must be a non-negative integer');
    const limit = Math.min(options.maxBytes ?? Infinity, this.options.maxObjectBytes);
    const input = await measured(body, limit);
    const contentType = await decideContentType(declared, input.head);
    const blob = `${scope.workspaceId}/${scope.namespace}/${randomUUID()}`;
    const own = unit ?? this.unit();
    try {
      await this.options.driver.put(blob, input.stream, contentType);
    } catch (error) {
      await this.options.driver.delete(blob).catch(() => {});
      if (input.done().overflow) throw tooLarge(limit);
      throw error;
    }
    const { size, sha256 } = input.done();
    const transaction = this.currentTransaction();
    own.wrote(blob, transaction);
    try {
      // One statement: the previous blob (locked) and the upsert, so it needs no transaction of its own.
      // The INSERT reads `previous` first (joined in), so it holds the row as it was before the update.
      const [rows] = (await this.options.sequelize.query(
        `WITH previous AS (
           SELECT blob FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = :ns AND key = :key FOR UPDATE
         )
         INSERT INTO platform.storage_objects (workspace_id, namespace, key, blob, size_bytes, content_type, sha256)
         SELECT :ws, :ns, :key, :blob, :size, :type, :sha256 FROM (VALUES (1)) AS one LEFT JOIN previous ON true
         ON CONFLICT (workspace_id, namespace, key) DO UPDATE SET blob = EXCLUDED.blob, size_bytes = EXCLUDED.size_bytes,
           content_type = EXCLUDED.content_type, sha256 = EXCLUDED.sha256, updated_at = now()
         RETURNING blob, size_bytes, content_type, sha256, updated_at, (SELECT blob FROM previous) AS previous`,
        { replacements: { ws: scope.workspaceId, ns: scope.namespace, key, blob, size, type: contentType, sha256 } },
      )) as [Array<ObjectRow & { previous: string | null }>, unknown];
      if (rows[0].previous) own.drop(rows[0].previous, transaction);
      return describe(key, rows[0]);
    } catch (error) {
      if (!unit) await own.finish();
      throw error;
    }
  }

  /** Removes the key's row; its blob goes once the transaction commits. */
  async delete(scope: StorageScope, key: string, unit: StorageUnit | null): Promise<boolean> {
    checkKey(key);
    const [rows] = (await this.options.sequelize.query('DELETE FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = :ns AND key = :key RETURNING blob', {
      replacements: { ws: scope.workspaceId, ns: scope.namespace, key },
    })) as [Array<{ blob: string }>, unknown];
    if (rows.length === 0) return false;
    (unit ?? this.unit()).drop(rows[0].blob, this.currentTransaction());
    return true;
  }

  /** The object with its bytes, or null. */
  async get(scope: StorageScope, key: string): Promise<StoredObjectStream | null> {
    checkKey(key);
    const row = await this.row(scope, key);
    if (!row) return null;
    const body = await this.options.driver.get(row.blob);
    if (!body) {
      this.options.logger.error({ workspace_id: scope.workspaceId, namespace: scope.namespace, blob: row.blob }, 'storage: an object row names a blob the store does not have');
      return null;
    }
    return { ...describe(key, row), body };
  }

  /** The object's description, or null. */
  async head(scope: StorageScope, key: string): Promise<StoredObject | null> {
    checkKey(key);
    const row = await this.row(scope, key);
    return row ? describe(key, row) : null;
  }

  /** A signed link to `/storage/{token}` on the workspace's public origin. */
  link(scope: StorageScope, claims: Omit<LinkClaims, 'ws' | 'ns' | 'exp'>, seconds: number): SignedUrl {
    const exp = Math.floor(this.now().getTime() / 1000) + seconds;
    const token = this.signer.sign({ ...claims, ws: scope.workspaceId, ns: scope.namespace, exp });
    return { url: `${publicOrigin(this.options.publicUrl, scope.subdomain)}/storage/${token}`, method: claims.op === 'get' ? 'GET' : 'PUT', expires_at: new Date(exp * 1000) };
  }

  /** The runtime's time: links are signed and checked by it. */
  now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  async signedDownloadUrl(scope: StorageScope, key: string, options: SignedDownloadOptions): Promise<SignedUrl> {
    checkKey(key);
    const seconds = lifetime(options.expiresInSeconds);
    // Any name a user gave a file is sent exactly (RFC 6266's filename*, see contentDisposition): only its length is bounded.
    if (options.filename !== undefined && (typeof options.filename !== 'string' || options.filename.length === 0 || options.filename.length > 255)) {
      throw new InvalidError('filename: must be 1-255 characters');
    }
    if (!(await this.row(scope, key))) throw new NotFoundError(`No file at ${key}`);
    return this.link(scope, { op: 'get', key, ...(options.filename ? { fn: options.filename } : {}) }, seconds);
  }

  async signedUploadUrl(scope: StorageScope, key: string, options: SignedUploadOptions): Promise<SignedUrl> {
    checkKey(key);
    const seconds = lifetime(options.expiresInSeconds);
    let contentType: string | undefined;
    if (options.contentType !== undefined) {
      contentType = typeof options.contentType === 'string' ? (normalizeMediaType(options.contentType) ?? undefined) : undefined;
      if (!contentType) throw new InvalidError(`contentType: ${JSON.stringify(options.contentType)} is not a media type (type/subtype)`);
    }
    if (options.maxBytes !== undefined && (!Number.isInteger(options.maxBytes) || options.maxBytes < 0)) throw new InvalidError('maxBytes: must be a non-negative integer');
    const max = Math.min(options.maxBytes ?? Infinity, this.options.maxObjectBytes);
    return this.link(scope, { op: 'put', key, max, ...(contentType ? { ct: contentType } : {}) }, seconds);
  }
}

/** `ctx.storage`: one workspace, one namespace; closures only, so walking the handle reaches no connection. */
function scopedStorage(service: StorageService, where: StorageScope, unit: StorageUnit | null): AppStorage {
  return Object.freeze({
    put: (key: string, body: StorageBody, options: StoragePutOptions = {}) => service.put(where, key, body, options, unit),
    get: (key: string) => service.get(where, key),
    head: (key: string) => service.head(where, key),
    delete: (key: string) => service.delete(where, key, unit),
    signedDownloadUrl: (key: string, options: SignedDownloadOptions = {}) => service.signedDownloadUrl(where, key, options),
    signedUploadUrl: (key: string, options: SignedUploadOptions = {}) => service.signedUploadUrl(where, key, options),
  });
}
