/**
 * Bad-input guard over the routes of every app of the root wpk.config.json (the platform's own are in
 * guard-bad-input-platform.test.ts, so the two run side by side). What is sent and what is checked:
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

test("bad-input guard, app routes: no malformed request answers 5xx or a bare error, and a refused one writes no row", async (t) => {
  const a = await seedWorkspace(env, 'alpha');
  const routes = guardedRoutes(env).filter((route) => route.settings.app?.wpkApp !== undefined);
  const result = await runBadInputGuard(env, a, routes, await rowCounter(env));
  t.log(`bad-input guard (apps): ${result.routes} routes, ${result.requests} requests, ${result.failures.length} failures`);
  t.true(result.routes > 30, `only ${result.routes} app routes`);
  t.deepEqual(result.failures, [], `${result.failures.length} bad-input failures:\n${result.failures.join('\n')}`);
  t.deepEqual(result.thin, [], 'routes with fewer than 25 variants');
});
