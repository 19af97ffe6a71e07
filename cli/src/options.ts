import { Option } from 'commander';
import { Runtime, type RuntimeOptions } from '@wpk/core';
import { CliError } from './errors.js';

/** Options shared by every command that opens the platform's database. */
export interface DatabaseCommandOptions {
  dataDir?: string;
}

export const dataDirOption = () => new Option('--data-dir <dir>', 'embedded database directory (default .wpk/data; ignored when DATABASE_URL is set)').env('WPK_DATA_DIR');

/** Parses a TCP port option; commander hands it over as a string. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new CliError(`--port must be an integer from 0 to 65535, got "${value}"`);
  return port;
}

/** Opens a runtime for a one-shot command, quiet unless something goes wrong. */
export async function openRuntime(options: DatabaseCommandOptions & RuntimeOptions): Promise<Runtime> {
  return Runtime.create({ logLevel: process.env.WPK_LOG_LEVEL ?? 'warn', ...options });
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
