import { Command, Option } from 'commander';
import path from 'node:path';
import type { Runtime } from '@wpk/core';
import { loadSdk } from '../kit.js';
import { appEntries, appOption, openRuntime, parsePort, projectDir, SERVER_LOG_LEVEL } from '../options.js';
import { migrationReporter } from '../progress.js';
import { stopOnSignals } from './start.js';

export const DEMO_SUBDOMAIN = 'demo';

export function devCommand(): Command {
  return new Command('dev')
    .description('run the server on the embedded database with a demo workspace (for local development)')
    .addOption(new Option('--port <port>', 'TCP port (default 3000)').env('PORT').argParser(parsePort))
    .addOption(new Option('--data-dir <dir>', 'embedded database directory').default('.wpk/dev'))
    .addOption(appOption())
    .action(async (options: { port?: number; dataDir: string; app?: string[] }) => {
      // Development always runs the embedded database, whatever DATABASE_URL says.
      const runtime = await openRuntime({ port: options.port, dataDir: path.resolve(projectDir(), options.dataDir), databaseUrl: null, apps: appEntries(options.app), logLevel: process.env.WPK_LOG_LEVEL ?? SERVER_LOG_LEVEL });
      try {
        await runtime.migrate(migrationReporter(process.stderr));
        const demo = await runtime.identity.seedDemo();
        const installed = await installDemoApps(runtime, demo.subdomain);
        const url = await runtime.start();
        const { port } = runtime.server.info;
        console.log(`listening on ${url}`);
        console.log(`demo workspace: http://${DEMO_SUBDOMAIN}.${runtime.config.baseDomain}:${port}`);
        console.log(`demo owner: ${demo.ownerEmail} / ${demo.ownerPassword}; apps installed: ${installed.join(', ') || 'none'}`);
        const workspace = await runtime.workspaces.findBySubdomain(demo.subdomain);
        const { secret } = await runtime.apiKeys.issueOwnerKey(workspace!.id, 'Demo owner key (wpk dev)', { replace: true });
        console.log(`demo owner's API key: ${secret}`);
      } catch (error) {
        await runtime.stop();
        throw error;
      }
      stopOnSignals(runtime);
    });
}

/**
 * Installs every app of the configuration that has code (wpk.config.json) in the demo workspace,
 * open to everyone, on behalf of its owner; apps already installed stay as they are.
 */
async function installDemoApps(runtime: Runtime, subdomain: string): Promise<string[]> {
  const workspace = await runtime.workspaces.findBySubdomain(subdomain);
  if (!workspace) return [];
  const [rows] = await runtime.db.sequelize.query("SELECT id FROM platform.members WHERE workspace_id = :workspaceId AND platform_role = 'owner' LIMIT 1", { replacements: { workspaceId: workspace.id } });
  const owner = (rows as Array<{ id: string }>)[0];
  const { ConflictError } = await loadSdk();
  const names: string[] = [];
  for (const app of runtime.apps.list()) {
    if (!app.definition) continue;
    names.push(app.namespace);
    const current = await runtime.apps.installations.find(workspace.id, app.namespace);
    if (current?.status === 'installed' || !owner) continue;
    try {
      await runtime.apps.installations.install(workspace.id, app, { access_policy: 'everyone' }, owner.id);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  return names;
}
