import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { SessionQueue } from './embedded-queue.js';

/** Raised when another process holds the embedded data directory. */
export class DataDirectoryLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`The data directory ${dataDir} is in use by another wpk process (pid ${pid}). Stop it first, or pass another --data-dir.`);
    this.name = 'DataDirectoryLockedError';
  }
}

const LOCK_FILE = 'wpk.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process. PGlite puts no lock of its own on it, and two
 * processes writing one directory corrupt it, so a second opener gets a clear error instead.
 * A lock left by a dead process is taken over.
 */
export function lockDataDirectory(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone: nothing to release
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirectoryLockedError(dataDir, pid);
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

export interface EmbeddedOptions {
  /** Directory holding the database files; omitted means in memory. */
  dataDir?: string;
  /** Upper bound on client connections (all pools together). */
  maxConnections?: number;
}

/** PostgreSQL in-process (PGlite), reachable over a loopback socket by any `pg` client. */
export class EmbeddedPostgres {
  private constructor(
    private readonly pglite: PGlite,
    private readonly socket: PGLiteSocketServer,
    private readonly release: () => void,
    /** A `postgres://` URL for `pg`, Sequelize and the job queue. */
    readonly url: string,
  ) {}

  static async start(options: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
    let release = () => {};
    let dataDir: string | undefined;
    if (options.dataDir) {
      release = lockDataDirectory(options.dataDir);
      dataDir = path.join(options.dataDir, 'pg');
    }
    try {
      // The extensions must be given at every open, or a directory that uses them fails to open.
      const pglite = await PGlite.create({ dataDir, extensions: { pg_trgm, fuzzystrmatch, unaccent } });
      const socket = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections ?? 64 });
      // Replace the library's per-message queue (see SessionQueue for why); connections pick it up as they attach.
      // queryQueue is private to the library, so the cast stays.
      (socket as unknown as { queryQueue: SessionQueue }).queryQueue = new SessionQueue(pglite);
      await socket.start();
      const address = socket.getServerConn();
      return new EmbeddedPostgres(pglite, socket, release, `postgres://postgres@${address}/postgres?sslmode=disable`);
    } catch (error) {
      release();
      throw error;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.socket.stop();
      await this.pglite.close();
    } finally {
      this.release();
    }
  }
}
