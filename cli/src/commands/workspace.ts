import { Command } from 'commander';
import { CliError } from '../errors.js';
import { loadCore } from '../kit.js';
import { dataDirOption, withRuntime } from '../options.js';

interface CreateOptions {
  subdomain: string;
  name: string;
  ownerEmail?: string;
  ownerPassword?: string;
  ownerName?: string;
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
    .option('--owner-email <email>', "the owner's email: creates the workspace with this joined owner (needs --owner-password)")
    .option('--owner-password <password>', "the owner's password (at least 8 characters); an existing account keeps its own, which must be this one")
    .option('--owner-name <name>', "the owner's display name (new accounts; default: the email's local part)")
    .option('--json', 'print the result as JSON')
    .addOption(dataDirOption())
    .action(async (options: CreateOptions) => {
      if ((options.ownerEmail === undefined) !== (options.ownerPassword === undefined)) throw new CliError('--owner-email and --owner-password go together');
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        if (options.ownerEmail !== undefined && options.ownerPassword !== undefined) {
          const owned = await runtime.identity.createWorkspaceWithOwner({ subdomain: options.subdomain, name: options.name, ownerEmail: options.ownerEmail, ownerPassword: options.ownerPassword, ownerName: options.ownerName });
          const email = options.ownerEmail.trim().toLowerCase();
          const { secret } = await runtime.apiKeys.issueFullAccessKey(owned.workspaceId, owned.memberId, 'Owner key (wpk workspace create)');
          if (options.json) {
            console.log(JSON.stringify({ workspace: { id: owned.workspaceId, subdomain: owned.subdomain, name: options.name.trim() }, owner: { member_id: owned.memberId, account_id: owned.accountId, email }, api_key: secret }));
          } else {
            console.log(`created workspace ${owned.subdomain} (${owned.workspaceId}) at http://${owned.subdomain}.${runtime.config.baseDomain}:${runtime.config.port}`);
            console.log(`owner ${email} (member ${owned.memberId}) can sign in there: POST /sessions {"email", "password"}`);
            console.log(`owner's full-access API key (shown once): ${secret}`);
          }
          return;
        }
        const { presentWorkspace } = await loadCore();
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
