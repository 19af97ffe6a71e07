import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type World } from '@wpk/testing';
import app from '../src/index.js';

// Finance and Settings on one platform: finance's base currency follows the organisation's, fed
// by the core.settings.organization.updated events the Settings app really emits, delivered as the
// broker delivers them; late and repeated deliveries change nothing.

let world: World;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'orgcopy', apps: [fileURLToPath(new URL('../../settings', import.meta.url))] });
  await world.workspace.install('settings');
  await world.deliver('system.app.installed', { app_slug: 'finance', installed_by: world.owner.id });
  world.takeEvents();
});

test.after.always(() => world?.close());

/** Delivers every captured event that is due, as the broker would; returns `action: outcome` for Finance. */
const deliverAll = async () => (await world.platform.deliverDue(world.workspace)).filter((done) => done.outcomes.finance).map((done) => `${done.event.action}: ${done.outcomes.finance}`);

/** A bill of one item in `currency`. */
const bill = (currency: string, rate = 1.25) => ok(world.owner.request('POST', '/finance/bills', { date: '2026-10-05', currency, exchange_rate: rate, items: [{ description: 'Design work', amount: 100, account_code: '6500' }] }));

test.serial("finance's base currency is its own setting until Settings announces the organisation's, then the organisation's; a bill computed before is refused at approval until saved again", async (t) => {
  const before = await bill('GBP');
  t.like(before, { base_currency: 'USD', total: '100.00', base_total: '125.00' });

  ok(await world.owner.request('PUT', '/settings/organization', { base_currency: 'EUR', legal_name: 'Acme GmbH' }));
  t.deepEqual(await deliverAll(), ['core.settings.organization.updated: handled']);
  t.like(await bill('GBP'), { base_currency: 'EUR', base_total: '125.00' });
  t.like(await bill('EUR', 1), { base_currency: 'EUR', exchange_rate: '1', base_total: '100.00' });

  ok(await world.owner.request('PATCH', `/finance/bills/${before.id}`, { status: 'received' }));
  const refused = await world.owner.request('PATCH', `/finance/bills/${before.id}`, { status: 'approved' });
  t.is(refused.status, 409);
  t.deepEqual(refused.body, { error: 'The bill was computed in the base currency USD, but the base currency is now EUR; save it again (PUT) before approving' });

  ok(await world.owner.request('PUT', '/settings/organization', { legal_name: 'Acme Holding GmbH' }));
  t.deepEqual(await deliverAll(), ['core.settings.organization.updated: handled'], 'a change of another field keeps the currency');
  t.like(await bill('GBP'), { base_currency: 'EUR' });
});

test.serial('the copy keeps the highest revision: a late or repeated delivery changes nothing', async (t) => {
  const profile = ok(await world.owner.request('GET', '/settings/organization'));
  const late = { legal_name: 'Old', base_currency: 'JPY', timezone: 'UTC', locale: 'en-US', week_start: 'monday', fiscal_year_start_month: 1, revision: profile.revision - 1, changed_fields: ['base_currency'], updated_by: world.owner.id };
  await world.deliver('core.settings.organization.updated', late);
  await world.deliver('core.settings.organization.updated', { ...late, revision: profile.revision });
  t.like(await bill('GBP'), { base_currency: 'EUR' });
  await world.deliver('core.settings.organization.updated', { ...late, base_currency: 'CHF', revision: profile.revision + 1 });
  t.like(await bill('GBP'), { base_currency: 'CHF' });
});
