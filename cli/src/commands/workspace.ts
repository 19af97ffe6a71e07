import { Command } from 'commander';
import { CliError } from '../errors.js';
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
    .description('create a workspace on {subdomain}.{BASE_DOMAIN} with its owner; prints the owner and their API key')
    .requiredOption('--subdomain <subdomain>', 'the workspace subdomain (3-63 of a-z, 0-9, -)')
    .requiredOption('--name <name>', 'display name (1-200 characters)')
    .option('--owner-email <email>', "the owner's email (required): the workspace is created with this joined owner, who gets a full-access API key")
    .option('--owner-password <password>', "the owner's password (required; at least 8 characters); an existing account keeps its own, which must be this one")
    .option('--owner-name <name>', "the owner's display name (new accounts; default: the email's local part)")
    .option('--json', 'print the result as JSON')
    .addOption(dataDirOption())
    .action(async (options: CreateOptions) => {
      // A workspace has exactly one owner (the specification's platform roles): without one nobody could sign in to it.
      if (options.ownerEmail === undefined || options.ownerPassword === undefined) throw new CliError('--owner-email and --owner-password are required: a workspace is created with its owner, who signs in with them');
      const { ownerEmail, ownerPassword } = options;
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        const owned = await runtime.identity.createWorkspaceWithOwner({ subdomain: options.subdomain, name: options.name, ownerEmail, ownerPassword, ownerName: options.ownerName });
        const email = ownerEmail.trim().toLowerCase();
        const { secret } = await runtime.apiKeys.issueFullAccessKey(owned.workspaceId, owned.memberId, 'Owner key (wpk workspace create)');
        if (options.json) {
          console.log(JSON.stringify({ workspace: { id: owned.workspaceId, subdomain: owned.subdomain, name: options.name.trim() }, owner: { member_id: owned.memberId, account_id: owned.accountId, email }, api_key: secret }));
          return;
        }
        const address = `http://${owned.subdomain}.${runtime.config.baseDomain}:${runtime.config.port}`;
        console.log(`created workspace ${owned.subdomain} (${owned.workspaceId}) at ${address}`);
        console.log(`owner: ${email} (member ${owned.memberId}); signs in there with POST /sessions {"email", "password"}`);
        console.log(`owner's full-access API key (shown once): ${secret}`);
      });
    });
  return workspace;
}
