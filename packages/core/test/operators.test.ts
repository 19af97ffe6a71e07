import test from 'ava';
import { QueryTypes } from 'sequelize';
import { operatorHeaders, startBillingRuntime, type BillingRuntime } from './helpers/billing.js';
import type { KeyedWorkspace } from './helpers/keys.js';

// Operator admin under /v/admin/… (docs/operators.md) and the platform's messages to a
// workspace's admins (GET /messages): release notes, coupons and their redemptions (a coupon
// discounts the next invoice), preview apps and their adopters.

let env: BillingRuntime;
let acme: KeyedWorkspace;
let secret: string;
let adminKey: string;
let memberKey: string;

const json = (response: { payload: string }) => JSON.parse(response.payload);

test.before(async () => {
  env = await startBillingRuntime(new Date('2027-03-01T09:00:00.000Z'));
  acme = await env.workspace('acme');
  adminKey = await env.keyOf(acme, 'admin', 'admin@acme.test');
  memberKey = await env.keyOf(acme, 'member', 'member@acme.test');
  ({ secret } = await env.runtime.server.plugins.operators.operators.add('Ops@Example.com', 'Platform ops'));
});

test.after.always(async () => {
  await env?.close();
});

const admin = (method: string, path: string, body?: unknown, credential: string | undefined = secret) => env.inject(method, path, operatorHeaders(credential), body);

test('an operator credential is wpo_ and 32 characters, kept as a hash; anything else gets 401, and no workspace serves /v/admin', async (t) => {
  t.regex(secret, /^wpo_[0-9A-Za-z]{32}$/);
  const [row] = await env.runtime.db.sequelize.query<{ email: string; prefix: string; secret_hash: string }>('SELECT email, prefix, secret_hash FROM platform.operators', { type: QueryTypes.SELECT });
  t.like(row, { email: 'ops@example.com', prefix: secret.slice(0, 12) });
  t.regex(row.secret_hash, /^[0-9a-f]{64}$/);
  for (const credential of ['', 'wpo_0000000000000000000000000000000A', acme.ownerKey]) {
    const answer = await admin('GET', '/v/admin/coupons', undefined, credential);
    t.is(answer.statusCode, 401);
    t.deepEqual(json(answer), { error: 'Operator credential required (Authorization: Bearer wpo_…, made by wpk operator add)' });
  }
  const onWorkspace = await env.inject('GET', '/v/admin/coupons', acme.as(secret));
  t.is(onWorkspace.statusCode, 404);
});

test.serial('release notes per version reach every workspace\'s admins as a thread; deleting a note takes it out', async (t) => {
  const first = await admin('POST', '/v/admin/versions/1.4.0/notes', { title: 'Faster search', body: 'Search answers in half the time.' });
  t.is(first.statusCode, 200);
  const note = json(first).data;
  t.like(note, { version: '1.4.0', title: 'Faster search', body: 'Search answers in half the time.', published_at: '2027-03-01T09:00:00.000Z' });
  env.clock.set(new Date('2027-03-01T10:00:00.000Z'));
  const second = json(await admin('POST', '/v/admin/versions/1.4.0/notes', { title: 'Coupons', body: 'Operators can give coupons.' })).data;
  const listed = json(await admin('GET', '/v/admin/versions/1.4.0/notes'));
  t.deepEqual(listed.data.map((row: { title: string }) => row.title), ['Faster search', 'Coupons']);

  const bad = await admin('POST', '/v/admin/versions/1.4.0/notes', { title: '', body: 'x' });
  t.is(bad.statusCode, 400);
  t.deepEqual(json(bad), { error: 'title is not allowed to be empty', field: 'title' });
  const badVersion = await admin('GET', '/v/admin/versions/bad!/notes');
  t.is(badVersion.statusCode, 400);

  for (const key of [acme.ownerKey, adminKey]) {
    const threads = json(await env.inject('GET', '/messages', acme.as(key)));
    t.deepEqual(threads.data.find((thread: { id: string }) => thread.id === 'release-1.4.0'), { id: 'release-1.4.0', topic: 'release', subject: 'Release notes for 1.4.0', message_count: 2, last_message_at: '2027-03-01T10:00:00.000Z' });
  }
  const refused = await env.inject('GET', '/messages', acme.as(memberKey));
  t.is(refused.statusCode, 403);
  t.deepEqual(json(refused), { error: "Only workspace owners and admins can read the platform's messages" });

  const thread = json(await env.inject('GET', '/messages/release-1.4.0', acme.as(adminKey))).data;
  t.deepEqual(thread.messages.map((message: { id: string; title: string }) => [message.id, message.title]), [[note.id, 'Faster search'], [second.id, 'Coupons']]);

  const deleted = await admin('DELETE', `/v/admin/versions/1.4.0/notes/${note.id}`);
  t.is(deleted.statusCode, 200);
  t.deepEqual(json(deleted).data, { id: note.id, deleted: true });
  t.is((await admin('DELETE', `/v/admin/versions/1.4.0/notes/${note.id}`)).statusCode, 404);
  t.is((await admin('DELETE', `/v/admin/versions/9.9.9/notes/${second.id}`)).statusCode, 404, 'a note is deleted under its own version only');
  t.deepEqual(json(await env.inject('GET', '/messages/release-1.4.0', acme.as(adminKey))).data.messages.map((message: { title: string }) => message.title), ['Coupons']);
  await admin('DELETE', `/v/admin/versions/1.4.0/notes/${second.id}`);
  const gone = await env.inject('GET', '/messages/release-1.4.0', acme.as(adminKey));
  t.is(gone.statusCode, 404);
  t.deepEqual(json(gone), { error: 'No message thread release-1.4.0' });
});

test.serial('a coupon discounts the next invoice once; a pending redemption can be withdrawn, an applied one cannot; billing notices reach the messages', async (t) => {
  const created = await admin('POST', '/v/admin/coupons', { code: 'WELCOME20', percent_off: 20, description: 'Welcome' });
  t.is(created.statusCode, 200);
  const coupon = json(created).data;
  t.like(coupon, { code: 'WELCOME20', percent_off: 20, amount_off: null, currency: null });
  const duplicate = await admin('POST', '/v/admin/coupons', { code: 'welcome20', amount_off: '5.00' });
  t.is(duplicate.statusCode, 409);
  t.deepEqual(json(duplicate), { error: 'A coupon with code welcome20 exists already' });
  const both = await admin('POST', '/v/admin/coupons', { code: 'BOTH', percent_off: 10, amount_off: '5.00' });
  t.deepEqual([both.statusCode, json(both)], [400, { error: 'give either percent_off or amount_off' }]);
  const fixed = json(await admin('POST', '/v/admin/coupons', { code: 'FIVE', amount_off: '5' })).data;
  t.like(fixed, { amount_off: '5.00', currency: 'USD', percent_off: null });

  const redeemed = await admin('POST', '/v/admin/coupon-redemptions', { coupon_id: coupon.id, workspace_id: acme.id });
  t.is(redeemed.statusCode, 200);
  const redemption = json(redeemed).data;
  t.like(redemption, { workspace_id: acme.id, coupon: { id: coupon.id, code: 'WELCOME20' }, status: 'pending', invoice_id: null, discount: null });
  const unknownWorkspace = await admin('POST', '/v/admin/coupon-redemptions', { coupon_id: coupon.id, workspace_id: '00000000-0000-4000-8000-000000000000' });
  t.deepEqual([unknownWorkspace.statusCode, json(unknownWorkspace)], [404, { error: 'No workspace 00000000-0000-4000-8000-000000000000' }]);

  // free → team, 3 seats, the whole period: 24.00, less 20 % = 19.20.
  const plan = json(await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'team' })).data;
  t.like(plan.invoice, { amount: '19.20' });
  t.deepEqual(plan.invoice.lines.at(-1), { description: 'Coupon WELCOME20', quantity: 1, unit_amount: '-4.80', amount: '-4.80' });
  const event = env.events.find((candidate) => candidate.action === 'core.billing.invoice.issued' && candidate.workspaceId === acme.id);
  t.is(event?.payload.amount, '19.20');
  const applied = json(await admin('GET', '/v/admin/coupon-redemptions')).data.find((row: { id: string }) => row.id === redemption.id);
  t.like(applied, { status: 'applied', invoice_id: plan.invoice.id, discount: '4.80' });
  const keep = await admin('DELETE', `/v/admin/coupon-redemptions/${redemption.id}`);
  t.deepEqual([keep.statusCode, json(keep)], [409, { error: 'This redemption was applied to an invoice already and cannot be withdrawn' }]);

  const pending = json(await admin('POST', '/v/admin/coupon-redemptions', { coupon_id: fixed.id, workspace_id: acme.id })).data;
  const withdrawn = await admin('DELETE', `/v/admin/coupon-redemptions/${pending.id}`);
  t.deepEqual([withdrawn.statusCode, json(withdrawn).data], [200, { id: pending.id, deleted: true }]);
  t.is((await admin('DELETE', `/v/admin/coupon-redemptions/${pending.id}`)).statusCode, 404);

  const threads = json(await env.inject('GET', '/messages', acme.as(adminKey))).data;
  const billing = threads.find((thread: { topic: string }) => thread.topic === 'billing');
  t.like(billing, { subject: 'Billing', message_count: 1 });
  const messages = json(await env.inject('GET', `/messages/${billing.id}`, acme.as(adminKey))).data.messages;
  t.deepEqual(messages.map((message: { body: string; link: string }) => [message.body, message.link]), [[`Invoice 1 (seats) of 19.20 USD for 2027-03-01 to 2027-04-01 is due on 2027-03-15.`, `/invoices/${plan.invoice.id}`]]);
  const other = await env.workspace('globex');
  t.is((await env.inject('GET', `/messages/${billing.id}`, other.as(other.ownerKey))).statusCode, 404, "another workspace's thread is not found");
});

test('preview apps and their adopter workspaces', async (t) => {
  const created = await admin('POST', '/v/admin/preview-apps', { slug: 'canvas-ai', name: 'Canvas AI', description: 'Drawing with a model' });
  t.is(created.statusCode, 200);
  t.like(json(created).data, { slug: 'canvas-ai', name: 'Canvas AI', adopters: 0 });
  t.is((await admin('POST', '/v/admin/preview-apps', { slug: 'canvas-ai', name: 'Again' })).statusCode, 409);
  const badSlug = await admin('POST', '/v/admin/preview-apps', { slug: 'Canvas AI', name: 'x' });
  t.deepEqual([badSlug.statusCode, json(badSlug)], [400, { error: 'slug must be 1-64 lower-case letters, digits and hyphens, starting with a letter', field: 'slug' }]);

  const initech = await env.workspace('initech');
  const adopted = await admin('POST', '/v/admin/preview-apps/canvas-ai/adopters', { workspace_id: initech.id });
  t.is(adopted.statusCode, 200);
  t.like(json(adopted).data, { workspace_id: initech.id, subdomain: 'initech' });
  t.is((await admin('POST', '/v/admin/preview-apps/canvas-ai/adopters', { workspace_id: initech.id })).statusCode, 409);
  t.is((await admin('POST', '/v/admin/preview-apps/nothing/adopters', { workspace_id: initech.id })).statusCode, 404);
  t.deepEqual(json(await admin('GET', '/v/admin/preview-apps/canvas-ai/adopters')).data.map((row: { subdomain: string }) => row.subdomain), ['initech']);
  t.like(json(await admin('GET', '/v/admin/preview-apps')).data.find((app: { slug: string }) => app.slug === 'canvas-ai'), { adopters: 1 });

  const removed = await admin('DELETE', `/v/admin/preview-apps/canvas-ai/adopters/${initech.id}`);
  t.deepEqual([removed.statusCode, json(removed).data], [200, { slug: 'canvas-ai', workspace_id: initech.id, deleted: true }]);
  const again = await admin('DELETE', `/v/admin/preview-apps/canvas-ai/adopters/${initech.id}`);
  t.deepEqual([again.statusCode, json(again)], [404, { error: `Workspace ${initech.id} has not adopted canvas-ai` }]);
});
