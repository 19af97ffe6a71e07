import { Command } from 'commander';
import { dataDirOption, withRuntime } from '../options.js';
import { CliError } from '../errors.js';

interface AddOptions {
  email: string;
  name?: string;
  json?: boolean;
  dataDir?: string;
}

/** `wpk operator add`: the people who run the platform and their credentials for `/v/admin/…` (docs/operators.md). */
export function operatorCommand(): Command {
  const operator = new Command('operator').description('manage platform operators (the people who run the platform: /v/admin/…)');
  operator
    .command('add')
    .description('add an operator, or give an existing one a new credential (the old one stops working); prints the credential once')
    .requiredOption('--email <email>', "the operator's email")
    .option('--name <name>', 'display name (default: the email’s local part)')
    .option('--json', 'print the result as JSON')
    .addOption(dataDirOption())
    .action(async (options: AddOptions) => {
      // Checked before the database opens: a typo fails at once.
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(options.email.trim())) throw new CliError('email must be an e-mail address');
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        let added;
        try {
          added = await runtime.operators.add(options.email, options.name ?? options.email.split('@')[0] ?? options.email);
        } catch (error) {
          throw new CliError((error as Error).message);
        }
        if (options.json) console.log(JSON.stringify({ operator: added.operator, credential: added.secret }));
        else {
          console.log(`operator ${added.operator.email} (${added.operator.id})`);
          console.log(`credential (shown once; send it as Authorization: Bearer): ${added.secret}`);
        }
      });
    });
  return operator;
}
