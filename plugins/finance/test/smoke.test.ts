import test from 'ava';
import { startWorld, type World } from './helpers/world.js';

let world: World;
test.before(async () => {
  world = await startWorld('smoke');
});
test.after.always(async () => {
  await world?.close();
});

test('smoke', async (t) => {
  const accounts = await world.owner.get('/finance/accounts?per_page=100');
  t.is(accounts.status, 200, JSON.stringify(accounts.body));
  const bill = await world.owner.post('/finance/bills', {
    date: '2026-11-02', currency: 'EUR', exchange_rate: 1.1,
    items: [{ description: 'Laptop', quantity: 2, unit_price: 1000, account_code: '1500', taxes: [{ name: 'VAT 20%', rate: 20 }] }],
  });
  t.is(bill.status, 200, JSON.stringify(bill.body));
  const approved = await world.owner.patch(`/finance/bills/${bill.body.data.id}`, { status: 'approved' });
  t.is(approved.status, 200, JSON.stringify(approved.body));
  const voided = await world.owner.patch(`/finance/bills/${bill.body.data.id}`, { status: 'void' });
  t.is(voided.status, 200, JSON.stringify(voided.body));
  const tb = await world.owner.get('/finance/reports/trial-balance');
  t.is(tb.status, 200);
  console.log(JSON.stringify(tb.body, null, 1).slice(0, 3000));
  const csv = await world.owner.get('/finance/reports/trial-balance?format=csv');
  console.log(JSON.stringify(csv.body).slice(0, 1000));
  const upd = await world.query('UPDATE app_finance.journal_lines SET debit = 0').catch((e: Error) => e.message);
  console.log(upd);
});
