import { Command, CommanderError, Option } from 'commander';
import path from 'node:path';
import { addCommand } from './commands/add.js';
import { brokerCommand } from './commands/broker.js';
import { dbCommand } from './commands/db.js';
import { devCommand } from './commands/dev.js';
import { eventsCommand } from './commands/events.js';
import { manifestCommand } from './commands/manifest.js';
import { memberCommand } from './commands/member.js';
import { operatorCommand } from './commands/operator.js';
import { migrateCommand } from './commands/migrate.js';
import { newCommand } from './commands/new.js';
import { openapiCommand } from './commands/openapi.js';
import { removeCommand } from './commands/remove.js';
import { searchCommand } from './commands/search.js';
import { startCommand } from './commands/start.js';
import { typesCommand } from './commands/types.js';
import { uiCommand } from './commands/ui.js';
import { validateCommand } from './commands/validate.js';
import { workspaceCommand } from './commands/workspace.js';
import { version } from './version.js';

/** The `wpk` command tree. */
export function buildProgram(): Command {
  const program = new Command('wpk')
    .description('Workspace Platform Kit: run and manage a multi-tenant workspace platform')
    .version(version, '-V, --version')
    .option('--verbose', 'print stack traces on errors')
    .addOption(new Option('--config <file>', "the project's config file (default: wpk.config.* in the working directory); relative paths resolve against its directory").env('WPK_CONFIG'))
    .showHelpAfterError('(run with --help for usage)');
  // Every command reads the project through WPK_CONFIG (core's Runtime.create, projectDir()).
  program.hook('preAction', (command) => {
    const file = (command.opts() as { config?: string }).config;
    if (file) process.env.WPK_CONFIG = path.resolve(file);
  });
  program.addCommand(startCommand());
  program.addCommand(devCommand());
  program.addCommand(migrateCommand());
  program.addCommand(dbCommand());
  program.addCommand(workspaceCommand());
  program.addCommand(memberCommand());
  program.addCommand(operatorCommand());
  program.addCommand(brokerCommand());
  program.addCommand(eventsCommand());
  program.addCommand(searchCommand());
  program.addCommand(validateCommand());
  program.addCommand(newCommand());
  program.addCommand(addCommand());
  program.addCommand(removeCommand());
  program.addCommand(typesCommand());
  program.addCommand(uiCommand());
  program.addCommand(manifestCommand());
  program.addCommand(openapiCommand());
  return program;
}

/** Runs the CLI; returns the exit code. Errors are one clear line (stack with --verbose). */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  program.exitOverride();
  const verbose = argv.includes('--verbose');
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander already printed it
    const message = error instanceof Error ? error.message : String(error);
    // An app-loading refusal lists one problem per line (file and field): print them all.
    const problems = (error as { problems?: unknown }).problems;
    console.error(`wpk: ${Array.isArray(problems) ? message : message.split('\n')[0]}`);
    if (verbose && error instanceof Error && error.stack) console.error(error.stack);
    return 1;
  }
}
