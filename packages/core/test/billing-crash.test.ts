import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { QueryTypes } from 'sequelize';
import { startBillingRuntime, type BillingRuntime } from './helpers/billing.js';
import type { KeyedWorkspace } from './helpers/keys.js';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

// The billing loop survives a process killed in the middle of a firing: the firing's writes die
// with its transaction, its job is taken over by another process once the claim expires, and
// the period is billed exactly once.

const FIXTURE = fileURLToPath(new URL('./fixtures/billing-worker-process.ts', import.meta.url));
const children = new Set<ChildProcess>();
let env: BillingRuntime;
let acme: KeyedWorkspace;

test.before(async () => {
  // This process's own worker only fires when told to (runDue): the child processes run the loop.
  env = await startBillingRuntime(new Date('2027-01-01T00:00:00.000Z'), { billing: { pollMs: 3_600_000, claimSeconds: 1 } } as never);
  acme = await env.workspace('acme');
});

test.after.always(async () => {
  for (const child of children) child.kill('SIGKILL');
  await env?.close();
});

function spawnWorker(crash: boolean): { child: ChildProcess; ready: Promise<void>; exited: Promise<NodeJS.Signals | number | null>; errors: () => string } {
  const child = spawn(process.execPath, [TS_HOOKS, FIXTURE], {
    env: { ...process.env, BILLING_DATABASE_URL: env.runtime.db.url, BILLING_CLOCK: '2027-02-01T00:00:00.000Z', BILLING_CRASH: crash ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  let errors = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(signal ?? code);
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`billing worker not ready after 30 s: ${errors}`)), 30_000);
    const check = () => {
      if (output.includes('ready\n')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => clearTimeout(timer));
  });
  return { child, ready, exited, errors: () => errors };
}

const invoices = () =>
  env.runtime.db.sequelize.query<{ number: number; kind: string; amount: string; period_start: Date }>('SELECT number, kind, amount::text AS amount, period_start FROM platform.invoices WHERE workspace_id = :id ORDER BY number', {
    type: QueryTypes.SELECT,
    replacements: { id: acme.id },
  });

test.serial('a process killed in the middle of a firing bills nothing; the next process bills the period exactly once', async (t) => {
  const opened = await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'team' });
  t.is(opened.statusCode, 200);
  t.is(JSON.parse(opened.payload).data.next_run_at, '2027-02-01T00:00:00.000Z');

  // The first process reaches the firing of 1 February and dies inside it.
  const first = spawnWorker(true);
  t.is(await first.exited, 'SIGKILL', first.errors());
  t.deepEqual((await invoices()).map((row) => row.number), [1], 'the half-written invoice died with its transaction');
  const [account] = await env.runtime.db.sequelize.query<{ next_run_at: Date }>('SELECT next_run_at FROM platform.billing_accounts WHERE workspace_id = :id', { type: QueryTypes.SELECT, replacements: { id: acme.id } });
  t.is(new Date(account.next_run_at).toISOString(), '2027-02-01T00:00:00.000Z');
  const [job] = await env.runtime.db.sequelize.query<{ state: string }>("SELECT state FROM pgboss.job WHERE name = 'wpk-billing' AND data->>'w' = :id AND data->>'due' = '2027-02-01T00:00:00.000Z'", {
    type: QueryTypes.SELECT,
    replacements: { id: acme.id },
  });
  t.is(job.state, 'active', 'the firing is still claimed by the dead process');

  // Another process (this one) takes the job over once the claim expires (1 s) and bills February once.
  env.clock.set(new Date('2027-02-01T00:00:00.000Z'));
  const deadline = Date.now() + 20_000;
  while ((await invoices()).length < 2 && Date.now() < deadline) {
    await env.runtime.billingWorker.runDue();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const rows = await invoices();
  t.deepEqual(rows.map((row) => [row.number, row.kind, row.amount, new Date(row.period_start).toISOString()]), [
    [1, 'seats', '8.00', '2027-01-01T00:00:00.000Z'],
    [2, 'seats', '8.00', '2027-02-01T00:00:00.000Z'],
  ]);
  const [events] = await env.runtime.db.sequelize.query<{ n: number }>("SELECT count(*)::int AS n FROM platform.events WHERE workspace_id = :id AND action = 'core.billing.invoice.issued'", {
    type: QueryTypes.SELECT,
    replacements: { id: acme.id },
  });
  t.is(events.n, 2, 'one event per invoice: none from the dead process');

  // Nothing is due again at this instant, whoever looks.
  await env.runtime.billingWorker.runDue();
  t.is((await invoices()).length, 2);
});
