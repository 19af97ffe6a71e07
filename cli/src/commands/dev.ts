import { Command, Option } from 'commander';
import path from 'node:path';
import { ConflictError } from '@wpk/sdk';
import { openRuntime, parsePort } from '../options.js';
import { stopOnSignals } from './start.js';

export const DEMO_SUBDOMAIN = 'demo';

export function devCommand(): Command {
  return new Command('dev')
    .description('run the server on the embedded database with a demo workspace (for local development)')
    .addOption(new Option('--port <port>', 'TCP port (default 3000)').env('PORT').argParser(parsePort))
    .addOption(new Option('--data-dir <dir>', 'embedded database directory').default('.wpk/dev'))
    .action(async (options: { port?: number; dataDir: string }) => {
      // Development always runs the embedded database, whatever DATABASE_URL says.
      const runtime = await openRuntime({ port: options.port, dataDir: path.resolve(options.dataDir), databaseUrl: undefined, logLevel: process.env.WPK_LOG_LEVEL ?? 'info' });
      try {
        await runtime.migrate();
        const existing = await runtime.workspaces.findBySubdomain(DEMO_SUBDOMAIN);
        if (!existing) {
          try {
            await runtime.workspaces.create({ subdomain: DEMO_SUBDOMAIN, name: 'Demo workspace' });
          } catch (error) {
            if (!(error instanceof ConflictError)) throw error;
          }
        }
        const url = await runtime.start();
        const { port } = runtime.server.info;
        console.log(`listening on ${url}`);
        console.log(`demo workspace: http://${DEMO_SUBDOMAIN}.${runtime.config.baseDomain}:${port}`);
      } catch (error) {
        await runtime.stop();
        throw error;
      }
      stopOnSignals(runtime);
    });
}
