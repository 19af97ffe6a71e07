import { Command, Option } from 'commander';
import { CliError } from '../errors.js';
import { loadCore } from '../kit.js';
import { dataDirOption } from '../options.js';

interface BrokerOptions {
  dataDir?: string;
  concurrency?: number;
}

function parseConcurrency(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1) throw new CliError(`--concurrency must be a positive integer, got "${value}"`);
  return number;
}

export function brokerCommand(): Command {
  return new Command('broker')
    .description('run an event broker on its own (relays the outbox, delivers webhooks); run as many as you like')
    .addOption(dataDirOption())
    .addOption(new Option('--concurrency <n>', 'deliveries in flight at once (default 64)').env('WPK_BROKER_CONCURRENCY').argParser(parseConcurrency))
    .action(async (options: BrokerOptions) => {
      const { startStandaloneBroker } = await loadCore();
      const broker = await startStandaloneBroker({ dataDir: options.dataDir, tuning: options.concurrency ? { concurrency: options.concurrency } : undefined });
      console.log(`broker running (pid ${process.pid})`);
      const stop = async () => {
        await broker.stop();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
