import type { Readable } from 'node:stream';

/**
 * Where object bytes live. A driver knows nothing of workspaces, apps or keys: it stores blobs
 * under names the storage service makes (`{workspace_id}/{namespace}/{uuid}`), checked by
 * `isBlobName`. The same contract tests run against every driver.
 */
export interface StorageDriver {
  /** `local` or `s3`. */
  readonly kind: 'local' | 's3';
  /** Writes the blob from the stream; on a stream error nothing is left under `name`. */
  put(name: string, body: Readable, contentType: string): Promise<void>;
  /** The blob's bytes, or null when there is none. */
  get(name: string): Promise<Readable | null>;
  /** Removes the blob; nothing happens when there is none. */
  delete(name: string): Promise<void>;
  /** Throws a clear error when the store cannot be used (missing bucket, unwritable directory). */
  check(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

const SEGMENT = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** True for a name the service could have made: 2-8 segments of `[a-z0-9._-]`, none `.` or `..`, no leading `/`. */
export function isBlobName(name: string): boolean {
  if (typeof name !== 'string' || name.length > 512) return false;
  const segments = name.split('/');
  return segments.length >= 2 && segments.length <= 8 && segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..' && !segment.includes('..'));
}

/** Refuses a name the service could not have made (a bug, or an attempt to leave the store). */
export function assertBlobName(name: string): void {
  if (!isBlobName(name)) throw new Error(`Refused storage blob name ${JSON.stringify(name)}: not a name the storage service makes`);
}
