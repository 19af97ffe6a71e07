import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertBlobName, type StorageDriver } from './driver.js';

/**
 * Blobs as files under one directory. A name maps to `{root}/{name}` only after it passed
 * `assertBlobName` and the resolved path is still inside the root; a write goes to a temporary
 * file first and is renamed into place, so a reader never sees half an object.
 */
export class LocalDiskDriver implements StorageDriver {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a blob; throws for any name that would leave the root. */
  fileOf(name: string): string {
    assertBlobName(name);
    const file = path.resolve(this.root, ...name.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Refused storage blob name ${JSON.stringify(name)}: outside the storage directory`);
    return file;
  }

  async put(name: string, body: Readable, _contentType: string): Promise<void> {
    const file = this.fileOf(name);
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(name: string): Promise<Readable | null> {
    const file = this.fileOf(name);
    const stream = createReadStream(file);
    // Opening is asynchronous: wait for it so a missing file is a null, not a stream error later.
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(null) : reject(error)));
    });
  }

  async delete(name: string): Promise<void> {
    await rm(this.fileOf(name), { force: true });
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.W_OK | constants.R_OK);
    } catch (error) {
      throw new Error(`STORAGE_DIR ${this.root} is not a readable and writable directory: ${(error as Error).message}`, { cause: error });
    }
  }

  async close(): Promise<void> {}
}
