import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { SessionQueue, type SaturationWatch } from './embedded-queue.js';

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
  /** Reports a statement that waited too long for the one session (db/embedded-queue.ts). */
  saturation?: SaturationWatch;
}

const EXTENSIONS = { pg_trgm, fuzzystrmatch, unaccent };

/** The image of a freshly initialised in-memory cluster, once read or made by this process. */
let freshImage: Promise<Blob | null> | undefined;

/**
 * Where the image of a fresh cluster is kept between processes: one file per PGlite version, or
 * null (no file) when the version cannot be read. The package does not export its package.json:
 * it is found by walking up from the package's entry file.
 */
function freshImagePath(): string | null {
  if (imagePath === undefined) imagePath = findFreshImagePath();
  return imagePath;
}

/** freshImagePath's answer, looked up once per process (it reads package files). */
let imagePath: string | null | undefined;

function findFreshImagePath(): string | null {
  for (let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const { name, version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name !== '@electric-sql/pglite') continue;
    return version ? path.join(os.tmpdir(), `wpk-pglite-${version}-fresh-cluster.tar`) : null;
  }
  return null;
}

/** The image of a fresh cluster, read from the temporary folder once per process; null when there is none (yet). */
function readFreshImage(): Promise<Blob | null> {
  freshImage ??= (async () => {
    try {
      const file = freshImagePath();
      return file ? new Blob([await fs.promises.readFile(file)]) : null;
    } catch {
      return null;
    }
  })();
  return freshImage;
}

/**
 * Opens an in-memory cluster. PGlite runs initdb for every new in-memory database (2 to 4 s of
 * CPU); a test suite opens one per test file, so the first open on a machine keeps the image of
 * its fresh cluster in the temporary folder and every later one starts from that image (under a
 * second). The image holds nothing but initdb's output, so it never goes stale within a PGlite
 * version. Any trouble with the file falls back to initdb.
 */
async function openInMemory(): Promise<PGlite> {
  const image = await readFreshImage();
  if (image) {
    try {
      return await PGlite.create({ loadDataDir: image, extensions: EXTENSIONS });
    } catch {
      freshImage = Promise.resolve(null); // unreadable or torn: initdb below, and write it again
    }
  }
  const pglite = await PGlite.create({ extensions: EXTENSIONS });
  const made = await pglite.dumpDataDir('none');
  try {
    const file = freshImagePath();
    if (!file) throw new Error('no PGlite version');
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, new Uint8Array(await made.arrayBuffer()));
    fs.renameSync(partial, file); // atomic: a process reading it never sees half a file
  } catch {
    // A read-only temporary folder: every open pays initdb, nothing else changes.
  }
  freshImage = Promise.resolve(made);
  return pglite;
}

/**
 * Opens the cluster in a data directory. A directory with no cluster yet starts from the image of
 * a fresh cluster when this machine has one (what initdb would write, in under a second instead of
 * about 5 s of CPU: a first `wpk dev` of a new project, and the CLI's tests, which make many); if
 * loading it fails, what it wrote is removed and initdb runs as it would have.
 */
async function openOnDisk(dataDir: string): Promise<PGlite> {
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const image = await readFreshImage();
    if (image) {
      try {
        return await PGlite.create({ dataDir, loadDataDir: image, extensions: EXTENSIONS });
      } catch {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return PGlite.create({ dataDir, extensions: EXTENSIONS });
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
      const pglite = dataDir ? await openOnDisk(dataDir) : await openInMemory();
      const socket = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections ?? 64 });
      // Replace the library's per-message queue (see SessionQueue for why); connections pick it up as they attach.
      // queryQueue is private to the library, so the cast stays.
      (socket as unknown as { queryQueue: SessionQueue }).queryQueue = new SessionQueue(pglite, options.saturation);
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
