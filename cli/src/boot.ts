import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AppEntry, Runtime, StartupProgress } from '@wpk/core';
import { CliError } from './errors.js';
import { loadCore } from './kit.js';
import { projectDir } from './options.js';
import { migrationCounter, migrationSummary, StepReporter } from './progress.js';

/** How `wpk start` and `wpk dev` open their server. */
export interface BootOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  /** `null`: the embedded database whatever `DATABASE_URL` says (`wpk dev`). */
  databaseUrl?: string | null;
  apps?: AppEntry[];
  logLevel: string;
  migrate: boolean;
}

/**
 * The server's log, held back until `release()`: `wpk dev` prints its box first, then the log.
 * Nothing is dropped; a failed start releases what was held before the error is printed.
 */
export class HeldLog {
  private held: string[] | null = [];

  write(line: string): void {
    if (this.held) this.held.push(line);
    else process.stdout.write(line);
  }

  release(): void {
    const lines = this.held ?? [];
    this.held = null;
    for (const line of lines) process.stdout.write(line);
  }
}

/**
 * Fails at once when `host:port` cannot be listened on (another server has it), instead of after
 * loading the apps and migrating. Port 0 (any free port) needs no probe.
 */
export async function probePort(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} on ${host} is in use by another process: stop it, or choose another port with --port (or PORT)`);
    if (code === 'EACCES') throw new CliError(`port ${port} on ${host} needs privileges this process lacks: choose a port above 1023 with --port (or PORT)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`cannot listen on ${host}: not an address of this machine (--host or HOST)`);
    throw error;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A path as the user would type it: relative to the working directory when inside it, absolute otherwise. */
export const shown = (dir: string) => {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
};

/**
 * Opens the server's runtime with every wait reported on `steps`: the port first, then loading
 * the code and the apps, opening the database, migrating (`migrating 41/87 ...` on a terminal,
 * one summary line otherwise). The runtime is migrated (unless `migrate` is false) but not
 * listening; its log is held until `log.release()`.
 */
export async function openServer(options: BootOptions, steps: StepReporter): Promise<{ runtime: Runtime; log: HeldLog }> {
  await probePort(options.host ?? '127.0.0.1', options.port ?? 3000);
  const { runtime, log } = await createRuntime(options, steps);
  try {
    if (options.migrate) await migrate(runtime, steps);
  } catch (error) {
    log.release();
    await runtime.stop();
    throw error;
  }
  return { runtime, log };
}

/** `Runtime.create` with each of its steps reported on `steps`; the log is held until `log.release()`. */
export async function createRuntime(options: Omit<BootOptions, 'migrate'>, steps: StepReporter): Promise<{ runtime: Runtime; log: HeldLog }> {
  const core = await steps.step("loading the server's code", loadCore, () => "loaded the server's code");
  const config = core.resolveConfig({ dataDir: options.dataDir, databaseUrl: options.databaseUrl }, process.env, projectDir());
  let database: { label: string; done: string };
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    const where = `${url.host}${url.pathname}`;
    database = { label: `connecting to PostgreSQL at ${where}`, done: `connected to PostgreSQL at ${where}` };
  } else {
    const fresh = !fs.existsSync(config.dataDir) || fs.readdirSync(config.dataDir).length === 0;
    const where = shown(config.dataDir);
    database = fresh ? { label: `creating the embedded database in ${where} (first start)`, done: `created the embedded database in ${where}` } : { label: `opening the embedded database in ${where}`, done: `opened the embedded database in ${where}` };
  }
  const labels: Record<StartupProgress['step'], string> = { apps: 'loading apps', database: database.label, platform: 'preparing the platform' };
  let since = 0;
  let current = '';
  const onProgress = (step: StartupProgress) => {
    if (step.phase === 'started') {
      since = performance.now();
      current = labels[step.step];
      steps.update(`${current} ...`);
      return;
    }
    current = '';
    const done = step.step === 'apps' ? `loaded ${step.count} app${step.count === 1 ? '' : 's'}` : step.step === 'database' ? database.done : 'prepared the platform';
    steps.end(`${done} (${((performance.now() - since) / 1000).toFixed(1)} s)`);
  };
  const log = new HeldLog();
  const logger = core.createLogger(options.logLevel, log);
  try {
    const runtime = await core.Runtime.create({ port: options.port, host: options.host, dataDir: options.dataDir, databaseUrl: options.databaseUrl, apps: options.apps, logger, onProgress });
    return { runtime, log };
  } catch (error) {
    if (current) steps.end(`${current}: failed`);
    log.release();
    throw error;
  }
}

/** Runs pending migrations as one reported step (on `steps`, or on `summary` for its result line); returns what ran, per schema. */
export async function migrate(runtime: Runtime, steps: StepReporter, summary = steps): Promise<Record<string, string[]>> {
  const { pendingMigrations } = await loadCore();
  let total = 0;
  for (const set of runtime.migrationSets()) total += (await pendingMigrations(runtime.db.sequelize, set)).length;
  const since = performance.now();
  steps.update(total > 0 ? `migrating 0/${total} ...` : 'checking migrations ...');
  let applied: Record<string, string[]>;
  try {
    applied = await runtime.migrate(migrationCounter(steps, total));
  } catch (error) {
    steps.end('migrating: failed');
    throw error;
  }
  if (summary !== steps) steps.clear();
  summary.end(`${migrationSummary(applied)} (${((performance.now() - since) / 1000).toFixed(1)} s)`);
  return applied;
}
