import { Command } from 'commander';
import { presentWorkspace } from '@wpk/core';
import { dataDirOption, withRuntime } from '../options.js';

interface CreateOptions {
  subdomain: string;
  name: string;
  json?: boolean;
  dataDir?: string;
}

export function workspaceCommand(): Command {
  const workspace = new Command('workspace').description('manage workspaces');
  workspace
    .command('create')
    .description('create a workspace on {subdomain}.{BASE_DOMAIN}')
    .requiredOption('--subdomain <subdomain>', 'the workspace subdomain (3-63 of a-z, 0-9, -)')
    .requiredOption('--name <name>', 'display name (1-200 characters)')
    .option('--json', 'print the result as JSON')
    .addOption(dataDirOption())
    .action(async (options: CreateOptions) => {
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        const created = presentWorkspace(await runtime.workspaces.create({ subdomain: options.subdomain, name: options.name }));
        if (options.json) {
          console.log(JSON.stringify({ workspace: { id: created.id, subdomain: created.subdomain, name: created.name } }));
        } else {
          console.log(`created workspace ${created.subdomain} (${created.id}) at http://${created.subdomain}.${runtime.config.baseDomain}:${runtime.config.port}`);
        }
      });
    });
  return workspace;
}
