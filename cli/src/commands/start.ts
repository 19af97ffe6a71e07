import { Command, Option } from 'commander';
import type { Runtime } from '@wpk/core';
import { openServer } from '../boot.js';
import { appEntries, appOption, dataDirOption, parsePort, SERVER_LOG_LEVEL } from '../options.js';
import { StepReporter } from '../progress.js';

interface StartOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  migrate: boolean;
  app?: string[];
}

/** Stops the runtime cleanly on Ctrl-C or a termination signal. */
export function stopOnSignals(runtime: Runtime): void {
  const stop = async (signal: string) => {
    runtime.logger.info({ signal }, 'stopping');
    await runtime.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/** Starts listening after a reported step; stops the runtime when it cannot. */
export async function listen(runtime: Runtime, steps: StepReporter): Promise<string> {
  try {
    return await steps.step('starting the server', () => runtime.start(), () => 'started the server');
  } catch (error) {
    await runtime.stop();
    throw error;
  }
}

/** True when the database holds no workspace yet (a fresh install); false when that cannot be read (`--no-migrate` on a database never migrated). */
export async function hasNoWorkspace(runtime: Runtime): Promise<boolean> {
  try {
    const [rows] = await runtime.db.sequelize.query('SELECT NOT EXISTS (SELECT 1 FROM platform.workspaces) AS empty');
    return (rows as Array<{ empty: boolean }>)[0].empty;
  } catch {
    return false;
  }
}

export function startCommand(): Command {
  return new Command('start')
    .description('run the platform server (migrations first, unless --no-migrate)')
    .addOption(new Option('--port <port>', 'TCP port (default 3000)').env('PORT').argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on (default 127.0.0.1)').env('HOST'))
    .addOption(dataDirOption())
    .option('--no-migrate', 'do not run pending migrations before starting')
    .addOption(appOption())
    .action(async (options: StartOptions) => {
      const steps = new StepReporter(process.stderr);
      const { runtime, log } = await openServer(
        { port: options.port, host: options.host, dataDir: options.dataDir, apps: appEntries(options.app), logLevel: process.env.WPK_LOG_LEVEL ?? SERVER_LOG_LEVEL, migrate: options.migrate },
        steps,
      );
      const url = await listen(runtime, steps).catch((error: unknown) => {
        log.release();
        throw error;
      });
      console.log(`listening on ${url}`);
      if (await hasNoWorkspace(runtime)) console.log(firstWorkspaceHint(runtime, url));
      log.release();
      stopOnSignals(runtime);
    });
}

/** What to do on an empty database: create the first workspace with its owner (who gets an API key). */
function firstWorkspaceHint(runtime: Runtime, url: string): string {
  const embedded = runtime.db.isEmbedded;
  return [
    'no workspace yet. Create the first one with its owner, who gets a full-access API key:',
    `  ${embedded ? 'stop this server (Ctrl-C), then ' : ''}wpk workspace create --subdomain acme --name "Acme" --owner-email you@example.com --owner-password '<8+ characters>'`,
    embedded ? '  and start it again (the embedded database takes one process at a time).' : '  (in another terminal, with the same DATABASE_URL; this server serves it at once).',
    `or let people sign up: POST ${url}/signup (docs/identity.md).`,
  ].join('\n');
}
