import { Command, Option } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import type { Runtime } from '@wpk/core';
import { openServer, shown } from '../boot.js';
import { loadSdk } from '../kit.js';
import { appEntries, appOption, parsePort, projectDir, SERVER_LOG_LEVEL } from '../options.js';
import { StepReporter } from '../progress.js';
import { listen, stopOnSignals } from './start.js';

export const DEMO_SUBDOMAIN = 'demo';
/** The demo owner's API key, in clear, in the data directory (mode 0600): the same key at every start. */
export const DEV_KEY_FILE = 'dev-api-key';
const DEV_KEY_NAME = 'Demo owner key (wpk dev)';

export function devCommand(): Command {
  return new Command('dev')
    .description('run the server on the embedded database with a demo workspace (for local development; runs in the foreground, Ctrl-C stops it)')
    .addOption(new Option('--port <port>', 'TCP port (default 3000)').env('PORT').argParser(parsePort))
    .addOption(new Option('--data-dir <dir>', 'embedded database directory').default('.wpk/dev'))
    .addOption(appOption())
    .action(async (options: { port?: number; dataDir: string; app?: string[] }) => {
      const steps = new StepReporter(process.stderr);
      const dataDir = path.resolve(projectDir(), options.dataDir);
      // Development always runs the embedded database, whatever DATABASE_URL says.
      const { runtime, log } = await openServer(
        { port: options.port, dataDir, databaseUrl: null, apps: appEntries(options.app), logLevel: process.env.WPK_LOG_LEVEL ?? SERVER_LOG_LEVEL, migrate: true },
        steps,
      );
      let demo: DemoWorkspace;
      try {
        demo = await steps.step('preparing the demo workspace', () => prepareDemo(runtime, dataDir), (ready) => `demo workspace ready: ${ready.apps.length} app${ready.apps.length === 1 ? '' : 's'} installed`);
      } catch (error) {
        log.release();
        await runtime.stop();
        throw error;
      }
      const url = await listen(runtime, steps).catch((error: unknown) => {
        log.release();
        throw error;
      });
      const { port } = runtime.server.info;
      const keyFile = shown(path.join(dataDir, DEV_KEY_FILE));
      console.log(
        box('wpk dev is running in the foreground: Ctrl-C stops it', [
          ['URL', url],
          ['Demo workspace', `http://${DEMO_SUBDOMAIN}.${runtime.config.baseDomain}:${port}`],
          ['Owner', `${demo.ownerEmail} / ${demo.ownerPassword}`],
          ['API key', demo.apiKey],
          ['', `the owner's full-access key, kept in ${keyFile}`],
          ['Apps', appsLine(demo.apps)],
        ]),
      );
      log.release();
      stopOnSignals(runtime);
    });
}

interface DemoWorkspace {
  ownerEmail: string;
  ownerPassword: string;
  apiKey: string;
  apps: string[];
}

/** Seeds the demo workspace (once), installs every app in it, and gives its owner's stable API key. */
async function prepareDemo(runtime: Runtime, dataDir: string): Promise<DemoWorkspace> {
  const demo = await runtime.identity.seedDemo();
  const workspace = await runtime.workspaces.findBySubdomain(demo.subdomain);
  if (!workspace) throw new Error(`the demo workspace ${demo.subdomain} was not created`);
  const apps = await installDemoApps(runtime, workspace.id);
  const apiKey = await demoOwnerKey(runtime, workspace.id, path.join(dataDir, DEV_KEY_FILE));
  return { ownerEmail: demo.ownerEmail, ownerPassword: demo.ownerPassword, apiKey, apps };
}

/**
 * The demo owner's full-access key, the same at every start: the clear key is kept in `file`
 * (mode 0600, beside the data directory's other generated secrets) and, as every key, only its
 * hash in the database. A kept key that no longer authenticates as the demo owner (revoked,
 * deleted, or the directory was reset) is replaced by a new one.
 */
export async function demoOwnerKey(runtime: Runtime, workspaceId: string, file: string): Promise<string> {
  const kept = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  if (kept) {
    const credentials = await runtime.apiKeys.authenticate(kept);
    if (credentials && credentials.member.workspaceId === workspaceId && credentials.member.platformRole === 'owner' && credentials.via.kind === 'api_key' && credentials.via.fullAccess) return kept;
  }
  const { secret } = await runtime.apiKeys.issueOwnerKey(workspaceId, DEV_KEY_NAME, { replace: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return secret;
}

/**
 * Installs every app of the configuration that has code (wpk.config.json) in the demo workspace,
 * open to everyone, on behalf of its owner; apps already installed stay as they are.
 */
async function installDemoApps(runtime: Runtime, workspaceId: string): Promise<string[]> {
  const [rows] = await runtime.db.sequelize.query("SELECT id FROM platform.members WHERE workspace_id = :workspaceId AND platform_role = 'owner' LIMIT 1", { replacements: { workspaceId } });
  const owner = (rows as Array<{ id: string }>)[0];
  const { ConflictError } = await loadSdk();
  const names: string[] = [];
  for (const app of runtime.apps.list()) {
    if (!app.definition) continue;
    names.push(app.namespace);
    const current = await runtime.apps.installations.find(workspaceId, app.namespace);
    if (current?.status === 'installed' || !owner) continue;
    try {
      await runtime.apps.installations.install(workspaceId, app, { access_policy: 'everyone' }, owner.id);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  return names;
}

/** `tasks, companies`, or `13 installed: tasks, companies, contacts and 10 more` when they do not fit. */
function appsLine(apps: string[]): string {
  if (apps.length === 0) return 'none (add one: wpk add app <package>)';
  const all = apps.join(', ');
  if (all.length <= 48) return all;
  return `${apps.length} installed: ${apps.slice(0, 3).join(', ')} and ${apps.length - 3} more`;
}

/** A framed table of `label  value` rows under a title, as `supabase start` ends. */
export function box(title: string, rows: Array<[string, string]>): string {
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const lines = [title, '', ...rows.map(([label, value]) => `${label.padEnd(labelWidth)}  ${value}`)];
  const width = Math.max(...lines.map((line) => line.length));
  return [`╭${'─'.repeat(width + 4)}╮`, ...lines.map((line) => `│  ${line.padEnd(width)}  │`), `╰${'─'.repeat(width + 4)}╯`].join('\n');
}
