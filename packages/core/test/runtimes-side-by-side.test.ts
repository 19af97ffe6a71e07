import test from 'ava';
import { apiHeaders, startTestRuntime, type TestRuntime } from './helpers/runtime.js';

const json = (response: { payload: string }) => JSON.parse(response.payload);

async function bootWithWorkspace(subdomain: string): Promise<{ env: TestRuntime; memberId: string }> {
  const env = await startTestRuntime({ configFile: false, scryptLogN: 10 });
  const created = await env.runtime.identity.createWorkspaceWithOwner({ subdomain, name: subdomain, ownerEmail: `owner@${subdomain}.test`, ownerPassword: `${subdomain}-password`, ownerName: 'Owner' });
  return { env, memberId: created.memberId };
}

test('two runtimes on two databases in one process stay fully separate: health, workspaces, identity', async (t) => {
  // Both boot before either is used: a binding shared through the module would now point at the second.
  const alpha = await bootWithWorkspace('alpha');
  let alphaClosed = false;
  t.teardown(() => (alphaClosed ? undefined : alpha.env.close()));
  const beta = await bootWithWorkspace('beta');
  t.teardown(() => beta.env.close());
  const [a, b] = [alpha.env.runtime, beta.env.runtime];

  // Health, answered on each runtime's own workspace and refused on the other's.
  for (const [runtime, own, other] of [[a, 'alpha', 'beta'], [b, 'beta', 'alpha']] as const) {
    const mine = await runtime.server.inject({ url: '/health', headers: apiHeaders(own) });
    t.is(mine.statusCode, 200, `${own} on its own runtime`);
    t.deepEqual(json(mine), { status: 'ok', database: 'ok' });
    const foreign = await runtime.server.inject({ url: '/health', headers: apiHeaders(other) });
    t.is(foreign.statusCode, 404, `${other} is unknown to the runtime of ${own}`);
  }

  // Workspaces: each service finds its own and only its own.
  t.is((await a.workspaces.findBySubdomain('alpha'))?.subdomain, 'alpha');
  t.is(await a.workspaces.findBySubdomain('beta'), null);
  t.is((await b.workspaces.findBySubdomain('beta'))?.subdomain, 'beta');
  t.is(await b.workspaces.findBySubdomain('alpha'), null);

  // Identity: each owner signs in on their own runtime; the models answer from their own database.
  for (const [runtime, own] of [[a, 'alpha'], [b, 'beta']] as const) {
    const signedIn = await runtime.server.inject({ method: 'POST', url: '/sessions', headers: apiHeaders(own, { 'content-type': 'application/json' }), payload: { email: `owner@${own}.test`, password: `${own}-password` } });
    t.is(signedIn.statusCode, 200, `sign-in on ${own}`);
    t.is(json(signedIn).data.workspace.subdomain, own);
    t.is(json(signedIn).data.platform_role, 'owner');
  }
  t.deepEqual((await a.identity.context.models.Account.findAll()).map((account) => account.email), ['owner@alpha.test']);
  t.deepEqual((await b.identity.context.models.Account.findAll()).map((account) => account.email), ['owner@beta.test']);
  t.is(await a.identity.context.models.Member.findByPk(beta.memberId), null);
  t.is(await b.identity.context.models.Member.findByPk(alpha.memberId), null);
  t.not(a.identity.context.models.Account, b.identity.context.models.Account);

  // One runtime stopping leaves the other whole.
  await alpha.env.close();
  alphaClosed = true;
  const still = await b.server.inject({ url: '/health', headers: apiHeaders('beta') });
  t.is(still.statusCode, 200);
});
