/**
 * Bad-input guard over the platform's own routes (core's route table; the apps' routes are in
 * guard-bad-input-apps.test.ts, so the two run side by side). What is sent and what is checked:
 * helpers/bad-input.ts.
 */
import test from 'ava';
import { runBadInputGuard, guardedRoutes } from './helpers/bad-input.js';
import { rowCounter, seedWorkspace, startGuardRuntime, type GuardRuntime } from './helpers/guard.js';

let env: GuardRuntime;

test.before(async () => {
  env = await startGuardRuntime();
});

test.after.always(async () => {
  await env?.close();
});

test("bad-input guard, platform routes: no malformed request answers 5xx or a bare error, and a refused one writes no row", async (t) => {
  const a = await seedWorkspace(env, 'alpha');
  const routes = guardedRoutes(env).filter((route) => route.settings.app?.wpkApp === undefined);
  const result = await runBadInputGuard(env, a, routes, await rowCounter(env));
  t.log(`bad-input guard (platform): ${result.routes} routes, ${result.requests} requests, ${result.failures.length} failures`);
  t.true(result.routes > 40, `only ${result.routes} platform routes`);
  t.deepEqual(result.failures, [], `${result.failures.length} bad-input failures:\n${result.failures.join('\n')}`);
  t.deepEqual(result.thin, [], 'routes with fewer than 25 variants');
});
