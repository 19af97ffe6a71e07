import { Command } from 'commander';
import { CliError } from '../errors.js';
import { loadCore } from '../kit.js';
import { appEntries, appOption, dataDirOption, openRuntime } from '../options.js';

/** `wpk db distribution-plan`: the Citus commands that distribute the database by workspace (docs/scale-out.md). */
function distributionPlanCommand(): Command {
  return new Command('distribution-plan')
    .description('print the Citus commands that distribute the (migrated) database by workspace: reference, distributed and coordinator-only tables')
    .addOption(dataDirOption())
    .addOption(appOption())
    .action(async (options: { dataDir?: string; app?: string[] }) => {
      const core = await loadCore();
      const runtime = await openRuntime({ dataDir: options.dataDir, apps: appEntries(options.app) });
      try {
        const sequelize = runtime.db.sequelize;
        for (const set of runtime.migrationSets()) {
          const pending = await core.pendingMigrations(sequelize, set);
          if (pending.length > 0) throw new CliError(`schema ${set.schema} has ${pending.length} pending migration(s) (${pending.join(', ')}): run wpk migrate first`);
        }
        const plan = await core.platformDistributionPlan(sequelize).catch((error: Error & { problems?: string[] }) => {
          if (!error.problems) throw new CliError(error.message);
          // One line per problem (the CLI prints every line of an error that lists its problems).
          throw Object.assign(new CliError(`the schema cannot be distributed by workspace: ${error.problems.length} problem(s)\n${error.problems.join('\n')}`), { problems: error.problems });
        });
        console.log(plan.join('\n'));
      } finally {
        await runtime.stop();
      }
    });
}

/** `wpk db …`: database commands beyond `wpk migrate`. */
export function dbCommand(): Command {
  return new Command('db').description('database commands (distribution-plan)').addCommand(distributionPlanCommand());
}
