import type { Readable } from 'node:stream';

/** What `ctx.storage.put` accepts as the object's bytes: a buffer, a string (UTF-8), or a stream of chunks. */
export type StorageBody = Buffer | Uint8Array | string | Readable | AsyncIterable<Uint8Array>;

/** Options of `ctx.storage.put`. */
export interface StoragePutOptions {
  /** The declared media type (`image/png`); checked against the bytes. Absent or `application/octet-stream`: the sniffed type is used. */
  contentType?: string;
  /** Refuse bodies larger than this many bytes (the platform's `STORAGE_MAX_OBJECT_BYTES` applies when it is smaller). */
  maxBytes?: number;
}

/** A stored object's description. */
export interface StoredObject {
  /** The key the app chose (`resumes/42.pdf`). */
  key: string;
  /** Size in bytes. */
  size_bytes: number;
  /** The media type kept with the object (declared and confirmed, or sniffed). */
  content_type: string;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  /** When the object was last written. */
  updated_at: Date;
}

/** A stored object with its bytes as a stream (read it once, or destroy it). */
export interface StoredObjectStream extends StoredObject {
  /** The bytes. */
  body: Readable;
}

/** A time-limited link served by the platform (`/storage/{token}` on the workspace's host). */
export interface SignedUrl {
  /** The absolute URL. */
  url: string;
  /** The HTTP method the link is for (`GET` to download, `PUT` to upload). */
  method: 'GET' | 'PUT';
  /** When the link stops working. */
  expires_at: Date;
}

/** Options of `ctx.storage.signedDownloadUrl`. */
export interface SignedDownloadOptions {
  /** Lifetime in seconds (default 300, at most 604800: seven days). */
  expiresInSeconds?: number;
  /** The file name offered to the browser (`Content-Disposition`). */
  filename?: string;
}

/** Options of `ctx.storage.signedUploadUrl`. */
export interface SignedUploadOptions {
  /** Lifetime in seconds (default 300, at most 604800: seven days). */
  expiresInSeconds?: number;
  /** The media type the upload must declare (its `Content-Type`) and its bytes must match; absent: any, sniffed. */
  contentType?: string;
  /** The largest body the link accepts, in bytes (the platform's `STORAGE_MAX_OBJECT_BYTES` applies when it is smaller). */
  maxBytes?: number;
}

/**
 * `ctx.storage`: files of this app in this workspace. Keys are the app's own names
 * (`resumes/42.pdf`): no other app and no other workspace can reach them. Writes join the
 * request's unit of work: a request that fails leaves the previous object in place.
 */
export interface AppStorage {
  /** Stores `body` under `key` (replacing what was there) and returns its description. Throws 400/413/415 domain errors. */
  put(key: string, body: StorageBody, options?: StoragePutOptions): Promise<StoredObject>;
  /** The object under `key` with its bytes as a stream, or null when there is none. */
  get(key: string): Promise<StoredObjectStream | null>;
  /** The object's description without its bytes, or null. */
  head(key: string): Promise<StoredObject | null>;
  /** Removes the object; true when there was one. */
  delete(key: string): Promise<boolean>;
  /** A link anyone holding it may download the object through until it expires (NotFoundError when there is no object). */
  signedDownloadUrl(key: string, options?: SignedDownloadOptions): Promise<SignedUrl>;
  /** A link anyone holding it may upload the object through (HTTP `PUT`, the bytes as the body) until it expires. */
  signedUploadUrl(key: string, options?: SignedUploadOptions): Promise<SignedUrl>;
}
