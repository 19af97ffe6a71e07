import { Command, Option } from 'commander';
import path from 'node:path';
import type { DeliveryLogEntry } from '@wpk/core';
import { CliError } from '../errors.js';
import { loadCore } from '../kit.js';
import { dataDirOption, withRuntime } from '../options.js';

interface ListOptions {
  limit: number;
  status?: DeliveryLogEntry['status'];
  action?: string;
  subscriber?: string;
  workspace?: string;
  json?: boolean;
  dataDir?: string;
}

const STATUSES = ['pending', 'retrying', 'delivered', 'exhausted'];

function parseLimit(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1 || number > 1000) throw new CliError(`--limit must be an integer from 1 to 1000, got "${value}"`);
  return number;
}

function line(entry: DeliveryLogEntry): string {
  const outcome = entry.status === 'delivered' ? `delivered ${entry.delivered_at}` : entry.status === 'retrying' ? `retrying at ${entry.next_attempt_at}` : entry.status;
  const last = entry.last_status !== null ? ` last ${entry.last_status}` : entry.last_error ? ` last error: ${entry.last_error}` : '';
  return `${entry.id}  ${entry.created_at}  ${entry.action} -> ${entry.subscriber}${entry.handler}  ${outcome}  attempts ${entry.attempts}/${entry.max_retries + 1}${last}`;
}

export function eventsCommand(): Command {
  const events = new Command('events').description('inspect and replay event deliveries');
  events
    .command('list')
    .description('list recent deliveries, newest first (redacted payload fields masked)')
    .addOption(new Option('--limit <n>', 'how many (1-1000, default 20)').default(20).argParser(parseLimit))
    .addOption(new Option('--status <status>', 'only deliveries in this state').choices(STATUSES))
    .option('--action <action>', 'only this action')
    .option('--subscriber <slug>', 'only this subscriber')
    .option('--workspace <id>', 'only this workspace id')
    .option('--json', 'print the deliveries as JSON')
    .addOption(dataDirOption())
    .action(async (options: ListOptions) => {
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        const deliveries = await runtime.events.listDeliveries({ limit: options.limit, status: options.status, action: options.action, subscriber: options.subscriber, workspaceId: options.workspace });
        if (options.json) console.log(JSON.stringify({ deliveries }));
        else if (deliveries.length === 0) console.log('no deliveries');
        else for (const entry of deliveries) console.log(line(entry));
      });
    });
  events
    .command('show')
    .description('show one delivery with every attempt')
    .argument('<delivery-id>', 'the delivery id (x-broker-event-id)')
    .option('--json', 'print the delivery as JSON')
    .addOption(dataDirOption())
    .action(async (id: string, options: { json?: boolean; dataDir?: string }) => {
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        const delivery = /^[0-9a-f-]{36}$/i.test(id) ? await runtime.events.getDelivery(id) : null;
        if (!delivery) throw new CliError(`No delivery ${id}`);
        if (options.json) {
          console.log(JSON.stringify({ delivery }));
          return;
        }
        console.log(line(delivery));
        for (const attempt of delivery.attempt_log ?? []) {
          console.log(`  attempt ${attempt.attempt}  ${attempt.started_at}  ${attempt.duration_ms} ms  ${attempt.outcome}${attempt.status_code !== null ? ` ${attempt.status_code}` : ''}${attempt.error ? `  ${attempt.error}` : ''}`);
        }
        console.log(`  payload ${JSON.stringify(delivery.payload)}`);
      });
    });
  events
    .command('replay')
    .description('send a delivery again, as a new delivery of the same event to the same subscriber')
    .argument('<delivery-id>', 'the delivery id (x-broker-event-id)')
    .option('--json', 'print the new delivery id as JSON')
    .addOption(dataDirOption())
    .action(async (id: string, options: { json?: boolean; dataDir?: string }) => {
      await withRuntime({ dataDir: options.dataDir }, async (runtime) => {
        if (!/^[0-9a-f-]{36}$/i.test(id)) throw new CliError(`No delivery ${id}`);
        let replay: string;
        try {
          replay = await runtime.events.replayDelivery(id);
        } catch (error) {
          throw new CliError((error as Error).message);
        }
        if (options.json) console.log(JSON.stringify({ delivery: { id: replay, replay_of: id } }));
        else console.log(`queued delivery ${replay} (replay of ${id}); a running broker sends it`);
      });
    });
  events
    .command('app-secret')
    .description("print a third-party app's broker secret (signs its ingress calls and the deliveries it receives)")
    .argument('<slug>', 'the app, ext.{publisher}.{app}')
    .addOption(dataDirOption())
    .action(async (slug: string, options: { dataDir?: string }) => {
      if (!/^ext\.[a-z][a-z0-9_-]*\.[a-z][a-z0-9_-]*$/.test(slug)) throw new CliError(`"${slug}" is not a third-party app slug (ext.{publisher}.{app}); first-party apps use BROKER_SECRET`);
      const { appSecret, resolveBrokerSecret } = await loadCore();
      const secret = resolveBrokerSecret({ dataDir: path.resolve(options.dataDir ?? '.wpk/data') });
      console.log(appSecret(secret, slug));
    });
  return events;
}
