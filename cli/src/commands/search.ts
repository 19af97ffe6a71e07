import { Command } from 'commander';
import { CliError } from '../errors.js';
import { dataDirOption, withRuntime } from '../options.js';
import { reindexReporter } from '../progress.js';

interface ReindexCommandOptions {
  app?: string;
  workspace?: string;
  json?: boolean;
  dataDir?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function searchCommand(): Command {
  const search = new Command('search').description('maintain the platform search index');
  search
    .command('reindex')
    .description("rebuild the search index from the reindex hooks of the apps the working directory's wpk.config names, in every workspace where each is installed")
    .option('--app <app>', 'only this app (tasks, ext.acme.hello)')
    .option('--workspace <workspace>', 'only this workspace (subdomain or id)')
    .option('--json', 'print {"reindexed": [...], "documents": N} as JSON and nothing else')
    .addOption(dataDirOption())
    .action(async (options: ReindexCommandOptions) => {
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        if (options.app !== undefined) {
          const app = runtime.apps.get(options.app);
          if (!app) throw new CliError(`No app ${options.app} is loaded (loaded: ${runtime.apps.list().map((loaded) => loaded.namespace).join(', ') || 'none'})`);
          if (runtime.apps.reindexableTypes(app.namespace).length === 0) throw new CliError(`${app.namespace} has no search reindex hook (defineApp search: { type: { reindex } })`);
        }
        let workspaceId: string | undefined;
        if (options.workspace !== undefined) {
          const workspace = UUID.test(options.workspace) ? await runtime.workspaces.findById(options.workspace) : await runtime.workspaces.findBySubdomain(options.workspace);
          if (!workspace) throw new CliError(`No workspace ${options.workspace}`);
          workspaceId = workspace.id;
        }
        const started = Date.now();
        const done = await runtime.reindexSearch({ app: options.app, workspaceId, onProgress: reindexReporter(options.json ? null : process.stdout) });
        const documents = done.reduce((sum, step) => sum + step.documents, 0);
        if (options.json) {
          console.log(JSON.stringify({ reindexed: done, documents }));
          return;
        }
        if (done.length === 0) {
          console.log('nothing to reindex: no app with a reindex hook is installed in the chosen workspaces');
          return;
        }
        const workspaces = new Set(done.map((step) => step.workspace)).size;
        console.log(`reindexed ${count(documents, 'document')} of ${count(done.length, 'type')} in ${count(workspaces, 'workspace')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      });
    });
  return search;
}
