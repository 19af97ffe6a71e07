import { Option } from 'commander';
import path from 'node:path';
import type { Runtime, RuntimeOptions } from '@wpk/core';
import { CliError } from './errors.js';
import { loadCore } from './kit.js';

/**
 * The project directory: that of the config file named by `--config` / `WPK_CONFIG`, else the
 * working directory. Relative paths of the project (data directory, apps) resolve against it.
 */
export function projectDir(): string {
  const file = process.env.WPK_CONFIG;
  return file ? path.dirname(path.resolve(file)) : process.cwd();
}

/** Options shared by every command that opens the platform's database. */
export interface DatabaseCommandOptions {
  dataDir?: string;
}

export const dataDirOption = () => new Option('--data-dir <dir>', 'embedded database directory (default .wpk/data; ignored when DATABASE_URL is set)').env('WPK_DATA_DIR');

/** `--app <dir>`, repeatable: an app loaded besides those the project's wpk.config file names. */
export const appOption = () =>
  new Option('--app <dir>', "also load the app in <dir> (repeatable; the working directory's wpk.config names the others)").argParser((value: string, previous: string[] = []) => [...previous, value]);

/** The runtime's app entries for `--app` directories. */
export function appEntries(dirs: string[] | undefined): Array<{ dir: string }> | undefined {
  return dirs?.map((dir) => ({ dir: path.resolve(dir) }));
}

/** Parses a TCP port option; commander hands it over as a string. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new CliError(`--port must be an integer from 0 to 65535, got "${value}"`);
  return port;
}

/** The log level of the servers (`wpk start`, `wpk dev`): one line per request. `WPK_LOG_LEVEL` overrides it. */
export const SERVER_LOG_LEVEL = 'info';
/** The log level of one-shot commands: quiet unless something goes wrong. `WPK_LOG_LEVEL` overrides it. */
export const COMMAND_LOG_LEVEL = 'warn';

/** Opens a runtime for a one-shot command (at COMMAND_LOG_LEVEL), or for a server when `logLevel` says so. */
export async function openRuntime(options: DatabaseCommandOptions & RuntimeOptions): Promise<Runtime> {
  const { Runtime } = await loadCore();
  return Runtime.create({ logLevel: process.env.WPK_LOG_LEVEL ?? COMMAND_LOG_LEVEL, ...options });
}

/** Runs `work` with a migrated runtime and always closes it. */
export async function withRuntime<T>(options: DatabaseCommandOptions & RuntimeOptions, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(options);
  try {
    await runtime.migrate();
    return await work(runtime);
  } finally {
    await runtime.stop();
  }
}
