import { Command } from 'commander';
import { appEntries, appOption, dataDirOption, openRuntime } from '../options.js';
import { migrationReporter } from '../progress.js';

export function migrateCommand(): Command {
  return new Command('migrate')
    .description('run pending migrations of the platform and of every loaded app')
    .addOption(dataDirOption())
    .option('--json', 'print what ran as JSON')
    .addOption(appOption())
    .action(async (options: { dataDir?: string; json?: boolean; app?: string[] }) => {
      const runtime = await openRuntime({ dataDir: options.dataDir, apps: appEntries(options.app) });
      try {
        // Each step is printed as it ends (a fresh database runs for many seconds); --json waits for the whole.
        const applied = await runtime.migrate(migrationReporter(options.json ? null : process.stdout));
        if (options.json) {
          console.log(JSON.stringify({ applied }));
          return;
        }
        const total = Object.values(applied).reduce((sum, names) => sum + names.length, 0);
        if (total === 0) console.log('nothing to migrate: the database is up to date');
      } finally {
        await runtime.stop();
      }
    });
}
