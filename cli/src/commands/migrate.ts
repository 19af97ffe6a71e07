import { Command } from 'commander';
import { createRuntime, migrate } from '../boot.js';
import { appEntries, appOption, COMMAND_LOG_LEVEL, dataDirOption } from '../options.js';
import { StepReporter } from '../progress.js';

export function migrateCommand(): Command {
  return new Command('migrate')
    .description('run pending migrations of the platform and of every loaded app')
    .addOption(dataDirOption())
    .option('--json', 'print what ran as JSON')
    .addOption(appOption())
    .action(async (options: { dataDir?: string; json?: boolean; app?: string[] }) => {
      // Loading and the migration counter go to stderr; the one result line to stdout; --json prints only its JSON.
      const steps = new StepReporter(options.json ? null : process.stderr);
      const { runtime, log } = await createRuntime({ dataDir: options.dataDir, apps: appEntries(options.app), logLevel: process.env.WPK_LOG_LEVEL ?? COMMAND_LOG_LEVEL }, steps);
      log.release();
      try {
        const applied = await migrate(runtime, steps, new StepReporter(options.json ? null : process.stdout));
        if (options.json) console.log(JSON.stringify({ applied }));
      } finally {
        await runtime.stop();
      }
    });
}
