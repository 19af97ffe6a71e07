import { Command, Option } from 'commander';
import type { Runtime } from '@wpk/core';
import { appEntries, appOption, dataDirOption, openRuntime, parsePort, SERVER_LOG_LEVEL } from '../options.js';
import { migrationReporter } from '../progress.js';

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

export function startCommand(): Command {
  return new Command('start')
    .description('run the platform server (migrations first, unless --no-migrate)')
    .addOption(new Option('--port <port>', 'TCP port (default 3000)').env('PORT').argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on (default 127.0.0.1)').env('HOST'))
    .addOption(dataDirOption())
    .option('--no-migrate', 'do not run pending migrations before starting')
    .addOption(appOption())
    .action(async (options: StartOptions) => {
      const runtime = await openRuntime({ port: options.port, host: options.host, dataDir: options.dataDir, apps: appEntries(options.app), logLevel: process.env.WPK_LOG_LEVEL ?? SERVER_LOG_LEVEL });
      try {
        if (options.migrate) await runtime.migrate(migrationReporter(process.stderr));
        const url = await runtime.start();
        console.log(`listening on ${url}`);
      } catch (error) {
        await runtime.stop();
        throw error;
      }
      stopOnSignals(runtime);
    });
}
