/**
 * Bad-input guard over the platform's own routes (core's route table; the apps' routes are in
 * guard-bad-input-apps.test.ts, so the two run side by side). What is sent and what is checked:
 * helpers/bad-input.ts.
 */
import test from 'ava';
import { GUARD_METHODS, guardedRoutes, runBadInputGuard } from './helpers/bad-input.js';
import { rowCounter, seedWorkspace, startGuardRuntime, type GuardRuntime, type SeededWorkspace } from './helpers/guard.js';

let env: GuardRuntime;
let a: SeededWorkspace;
let counts: () => Promise<Record<string, number>>;
const totals = { routes: 0, requests: 0, failures: 0 };

test.before(async () => {
  env = await startGuardRuntime();
  a = await seedWorkspace(env, 'alpha');
  counts = await rowCounter(env);
});

test.after.always(async () => {
  await env?.close();
});

// One serial test per method (deletions last), so each reports on its own and none runs for minutes.
for (const method of GUARD_METHODS) {
  test.serial(`bad-input guard, platform ${method.toUpperCase()} routes: no malformed request answers 5xx or a bare error, and a refused one writes no row`, async (t) => {
    const routes = guardedRoutes(env).filter((route) => route.method === method && route.settings.app?.wpkApp === undefined);
    const result = await runBadInputGuard(env, a, routes, counts);
    totals.routes += result.routes;
    totals.requests += result.requests;
    totals.failures += result.failures.length;
    t.log(`bad-input guard (platform, ${method.toUpperCase()}): ${result.routes} routes, ${result.requests} requests, ${result.failures.length} failures`);
    if (method === GUARD_METHODS[GUARD_METHODS.length - 1]) {
      t.log(`bad-input guard (platform, total): ${totals.routes} routes, ${totals.requests} requests, ${totals.failures} failures`);
      t.true(totals.routes > 40, `only ${totals.routes} platform routes`);
      const unguarded = guardedRoutes(env).filter((route) => !(GUARD_METHODS as readonly string[]).includes(route.method));
      t.deepEqual(unguarded.map((route) => `${route.method} ${route.path}`), [], 'routes with a method no test of this file takes');
    }
    t.deepEqual(result.failures, [], `${result.failures.length} bad-input failures:\n${result.failures.join('\n')}`);
    t.deepEqual(result.thin, [], 'routes with fewer than 25 variants');
  });
}
