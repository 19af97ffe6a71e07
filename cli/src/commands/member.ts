import { Command, Option } from 'commander';
import { dataDirOption, withRuntime } from '../options.js';
import { CliError } from '../errors.js';

interface AddOptions {
  subdomain: string;
  email: string;
  password: string;
  platformRole: 'admin' | 'member';
  name?: string;
  json?: boolean;
  dataDir?: string;
}

export function memberCommand(): Command {
  const member = new Command('member').description('manage workspace members');
  member
    .command('add')
    .description('add a joined member with a password to a workspace (for seeding and scripts; people are normally invited)')
    .requiredOption('--subdomain <subdomain>', 'the workspace subdomain')
    .requiredOption('--email <email>', "the member's email")
    .requiredOption('--password <password>', 'their password (at least 8 characters); an existing account keeps its own, which must be this one')
    .addOption(new Option('--platform-role <role>', 'platform role').choices(['admin', 'member']).makeOptionMandatory())
    .option('--name <name>', 'display name (new accounts; default: the email’s local part)')
    .option('--json', 'print the result as JSON')
    .addOption(dataDirOption())
    .action(async (options: AddOptions) => {
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        const workspace = await runtime.workspaces.findBySubdomain(options.subdomain);
        if (!workspace) throw new CliError(`No workspace at ${options.subdomain}.${runtime.config.baseDomain}`);
        const added = await runtime.identity.addMember({ workspaceId: workspace.id, email: options.email, password: options.password, platformRole: options.platformRole, name: options.name });
        const email = options.email.trim().toLowerCase();
        const { secret } = await runtime.apiKeys.issueFullAccessKey(workspace.id, added.memberId, 'Member key (wpk member add)');
        if (options.json) {
          console.log(JSON.stringify({ member: { id: added.memberId, account_id: added.accountId, workspace_id: workspace.id, email, platform_role: options.platformRole, state: 'joined' }, api_key: secret }));
        } else {
          console.log(`added ${email} to ${workspace.subdomain} as ${options.platformRole} (member ${added.memberId})`);
          console.log(`full-access API key for ${email} (shown once): ${secret}`);
        }
      });
    });
  return member;
}
