import { Command } from 'commander';
import { appEntries, appOption, dataDirOption, openRuntime } from '../options.js';

export function migrateCommand(): Command {
  return new Command('migrate')
    .description('run pending migrations of the platform and of every loaded app')
    .addOption(dataDirOption())
    .option('--json', 'print what ran as JSON')
    .addOption(appOption())
    .action(async (options: { dataDir?: string; json?: boolean; app?: string[] }) => {
      const runtime = await openRuntime({ dataDir: options.dataDir, apps: appEntries(options.app) });
      try {
        const applied = await runtime.migrate();
        if (options.json) {
          console.log(JSON.stringify({ applied }));
          return;
        }
        const total = Object.values(applied).reduce((sum, names) => sum + names.length, 0);
        if (total === 0) console.log('nothing to migrate: the database is up to date');
        for (const [schema, names] of Object.entries(applied)) for (const name of names) console.log(`applied ${schema}/${name}`);
      } finally {
        await runtime.stop();
      }
    });
}
