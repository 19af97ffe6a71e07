import test from 'ava';
import { operatorHeaders, startBillingRuntime, type BillingRuntime } from './helpers/billing.js';
import type { KeyedWorkspace } from './helpers/keys.js';

// The Workspaces-line partials (docs/web.md, "Partials"): each is the HTML fragment of the JSON
// API route that holds its data, read with the browser's session and refused as that route is
// (who may see which is proven for every visitor in web-access.test.ts). Here: what they show.

let env: BillingRuntime;
let acme: KeyedWorkspace;
let cookie: string;
let adminCookie: string;
let operator: string;

const json = (response: { payload: string }) => JSON.parse(response.payload);
/** The text of a fragment's cells, row by row. */
const cells = (html: string) =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/gs)].map((row) => [...row[1].matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((cell) => cell[1].replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim())).filter((row) => row.length > 0);

async function signIn(subdomain: string, email: string, password: string): Promise<string> {
  const answer = await env.inject('POST', '/sessions', { host: `${subdomain}.localhost`, 'x-api-version': '2026-11-01' }, { email, password });
  if (answer.statusCode !== 200) throw new Error(`sign-in: ${answer.statusCode} ${answer.payload}`);
  return ([] as string[]).concat(answer.headers['set-cookie'] as string[]).map((value) => value.split(';')[0]).join('; ');
}

const partial = async (path: string, as = cookie) => {
  const answer = await env.inject('GET', path, { host: 'acme.localhost', cookie: as });
  return { status: answer.statusCode, type: String(answer.headers['content-type']), html: answer.payload };
};

test.before(async () => {
  env = await startBillingRuntime(new Date('2027-01-01T00:00:00.000Z'));
  acme = await env.workspace('acme');
  const globex = await env.workspace('globex');
  await env.runtime.identity.addMember({ workspaceId: globex.id, email: 'owner@acme.test', password: 'owner-password-1', platformRole: 'admin' });
  await env.runtime.identity.addMember({ workspaceId: acme.id, email: 'ada@acme.test', password: 'ada-password-1', platformRole: 'admin' });
  cookie = await signIn('acme', 'owner@acme.test', 'owner-password-1');
  adminCookie = await signIn('acme', 'ada@acme.test', 'ada-password-1');
  operator = (await env.runtime.server.plugins.operators.operators.add('ops@platform.test', 'Ops')).secret;
});

test.after.always(async () => {
  await env?.close();
});

test.serial('/partials/workspaces: the workspaces of the signed-in account, this one marked (GET /me/workspaces)', async (t) => {
  // The browser's session only: no API key lists the account's other workspaces.
  const answer = json(await env.inject('GET', '/me/workspaces', { host: 'acme.localhost', 'x-api-version': '2026-11-01', cookie }));
  t.deepEqual(
    answer.data.map((row: { subdomain: string; platform_role: string; current: boolean; url: string }) => [row.subdomain, row.platform_role, row.current, row.url]),
    [
      ['acme', 'owner', true, 'http://acme.localhost'],
      ['globex', 'admin', false, 'http://globex.localhost'],
    ],
  );
  const fragment = await partial('/partials/workspaces');
  t.is(fragment.status, 200);
  t.regex(fragment.type, /^text\/html/);
  t.regex(fragment.html, /^<div class="table-wrap" id="workspace-rows">/);
  t.deepEqual(cells(fragment.html), [
    ['acme (this one)', 'acme', 'owner'],
    ['globex', 'globex', 'admin'],
  ]);
  t.regex(fragment.html, /<a href="http:\/\/globex\.localhost\/">globex<\/a>/);
});

test.serial('/partials/microns: the usage meter of the period; /partials/coupons: the coupons given to the workspace', async (t) => {
  const before = await partial('/partials/microns');
  t.is(before.status, 200);
  t.deepEqual(cells(before.html), [['Seats in use', '2', '', '']]);
  t.regex(before.html, /No billing period has started yet/);

  const coupon = json(await env.inject('POST', '/v/admin/coupons', { ...operatorHeaders(operator), 'content-type': 'application/json' }, { code: 'HALF', percent_off: 50 })).data;
  await env.inject('POST', '/v/admin/coupon-redemptions', operatorHeaders(operator), { coupon_id: coupon.id, workspace_id: acme.id });
  t.deepEqual(cells((await partial('/partials/coupons')).html), [['HALF', 'pending: applies to the next invoice', '', '2027-01-01T00:00:00.000Z', '']]);

  // team, monthly, 2 seats: 16.00 less 50 %.
  const invoice = json(await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'team' })).data.invoice;
  t.is(invoice.amount, '8.00');
  t.deepEqual(cells((await partial('/partials/coupons')).html), [['HALF', 'applied', '8.00', '2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']]);
  t.deepEqual(json(await env.inject('GET', '/coupon-redemptions', acme.as(acme.ownerKey))).data.map((row: { status: string; invoice_id: string }) => [row.status, row.invoice_id]), [['applied', invoice.id]]);

  await env.keyOf(acme, 'member', 'third@acme.test');
  const meter = await partial('/partials/microns');
  t.deepEqual(cells(meter.html), [
    ['Seats in use', '3', '', ''],
    ['Seats paid for this period', '2', '', ''],
    ['Next monthly period of seats (billed at the next run)', '3', '8.00 USD', '24.00 USD'],
  ]);
  t.regex(meter.html, /Usage of the Team plan \(monthly\)/);
  t.regex(meter.html, /The next billing run is on 2027-02-01T00:00:00.000Z/);

  // Annual: the usage loop bills the seats beyond those paid at the monthly price.
  await env.inject('PUT', '/plan/interval', acme.as(acme.ownerKey), { billing_interval: 'annual' });
  await env.keyOf(acme, 'member', 'fourth@acme.test');
  env.clock.set(new Date('2027-02-01T00:00:00.000Z'));
  await env.runtime.billingWorker.runDue();
  // A month on, the sessions have lapsed: sign in again.
  cookie = await signIn('acme', 'owner@acme.test', 'owner-password-1');
  adminCookie = await signIn('acme', 'ada@acme.test', 'ada-password-1');
  t.deepEqual(cells((await partial('/partials/microns')).html), [
    ['Seats in use', '4', '', ''],
    ['Seats paid for this period', '3', '', ''],
    ['Seats beyond those paid (billed at the next run)', '1', '8.00 USD', '8.00 USD'],
  ]);
  // An app's metered usage of the month (ctx.usage.record): microns and what the next run bills (250.5 cents: halves up).
  t.is((await env.inject('POST', '/applications/notes/installations', acme.as(acme.ownerKey), { access_policy: 'everyone' })).statusCode, 200);
  t.is((await env.inject('POST', '/notes/metered', acme.as(acme.ownerKey), { meter: 'words', microns: 2_505_000 })).statusCode, 200);
  t.deepEqual(cells((await partial('/partials/microns')).html).slice(3), [['Metered: notes words (since 2027-02-01, billed at the next run)', '2505000 microns', '', '2.51 USD']]);
  // The meter is the owner's, as GET /plan is.
  t.is((await partial('/partials/microns', adminCookie)).status, 403);
});

test.serial('/partials/threads and /partials/releases: the platform messages and release notes', async (t) => {
  const note = (version: string, title: string, body: string) => env.inject('POST', `/v/admin/versions/${version}/notes`, operatorHeaders(operator), { title, body });
  await note('1.4.0', 'Faster search', 'Search answers in half the time.');
  env.clock.set(new Date('2027-02-02T00:00:00.000Z'));
  await note('1.5.0', 'Coupons', 'Operators can give coupons.');
  env.clock.set(new Date('2027-02-02T00:00:01.000Z'));
  await note('1.5.0', 'Usage meter', 'See what the next run bills.');
  const threads = cells((await partial('/partials/threads', adminCookie)).html);
  t.deepEqual(threads.map((row) => row.slice(0, 3)), [
    ['Release notes for 1.5.0', 'release', '2'],
    ['Billing', 'billing', String(json(await env.inject('GET', '/messages', acme.as(acme.ownerKey))).data.find((row: { topic: string }) => row.topic === 'billing').message_count)],
    ['Release notes for 1.4.0', 'release', '1'],
  ]);
  const releases = await partial('/partials/releases', adminCookie);
  t.is(releases.status, 200);
  t.regex(releases.html, /^<div id="release-rows">/);
  const sections = [...releases.html.matchAll(/<h3>(.*?)<\/h3>\s*<ul>(.*?)<\/ul>/gs)].map((match) => [match[1], [...match[2].matchAll(/<strong>(.*?)<\/strong>/g)].map((item) => item[1])]);
  t.deepEqual(sections, [
    ['Release notes for 1.5.0', ['Coupons', 'Usage meter']],
    ['Release notes for 1.4.0', ['Faster search']],
  ]);
});

test.serial('/partials/preview-apps: the preview apps the workspace was let into; /partials/demos: its demo requests', async (t) => {
  t.deepEqual(cells((await partial('/partials/preview-apps', adminCookie)).html), [["No preview apps: the platform's operators let workspaces into apps before their release."]]);
  await env.inject('POST', '/v/admin/preview-apps', operatorHeaders(operator), { slug: 'wands', name: 'Wands', description: 'AI helpers' });
  await env.inject('POST', '/v/admin/preview-apps', operatorHeaders(operator), { slug: 'canvas', name: 'Canvas' });
  await env.inject('POST', '/v/admin/preview-apps/wands/adopters', operatorHeaders(operator), { workspace_id: acme.id });
  t.deepEqual(cells((await partial('/partials/preview-apps', adminCookie)).html), [['Wands (wands)', 'AI helpers', '2027-02-02T00:00:01.000Z']]);
  t.deepEqual(json(await env.inject('GET', '/preview-apps', acme.as(acme.ownerKey))).data, [{ slug: 'wands', name: 'Wands', description: 'AI helpers', adopted_at: '2027-02-02T00:00:01.000Z' }]);

  t.deepEqual(cells((await partial('/partials/demos', adminCookie)).html), [['No demo requests yet.']]);
  const memberKey = await env.keyOf(acme, 'member', 'fifth@acme.test');
  const refused = await env.inject('POST', '/demo-requests', acme.as(memberKey), { message: 'Show me' });
  t.deepEqual([refused.statusCode, json(refused)], [403, { error: 'Only workspace owners and admins can ask for a demo' }]);
  const empty = await env.inject('POST', '/demo-requests', acme.as(acme.ownerKey), { message: '  ' });
  t.deepEqual([empty.statusCode, json(empty)], [400, { error: 'message is not allowed to be empty', field: 'message' }]);
  const asked = await env.inject('POST', '/demo-requests', acme.as(acme.ownerKey), { message: 'A tour of <b>finance</b> for our team' });
  t.is(asked.statusCode, 200);
  t.like(json(asked).data, { email: 'owner@acme.test', message: 'A tour of <b>finance</b> for our team', created_at: '2027-02-02T00:00:01.000Z' });
  const demos = await partial('/partials/demos', adminCookie);
  t.deepEqual(cells(demos.html), [['2027-02-02T00:00:01.000Z', 'owner (owner@acme.test)', 'A tour of finance for our team'.replace('finance', '&lt;b&gt;finance&lt;/b&gt;')]]);
  t.false(demos.html.includes('<b>finance'), 'escaped');
});
