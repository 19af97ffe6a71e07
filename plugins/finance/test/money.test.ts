/**
 * The bill editor's running totals (ui/money.ts, run in the browser) against the server's own
 * computation of a bill (services/compute.ts): for any items, taxes and adjustments, in a currency
 * with two decimals or none, with amounts typed or made of quantity × unit price − discount, the
 * editor shows exactly the line amounts, subtotal, tax, adjustments and total the server will store.
 */
import test from 'ava';
import fc from 'fast-check';
import { computeBill, type AdjustmentInput, type ItemInput } from '../src/services/compute.js';
import { billTotals, fromMicros, lineAmount, percentOf, roundMicros, toMicros } from '../ui/money.js';

test('decimal strings become millionths exactly, and back with the currency decimals', (t) => {
  t.is(toMicros('12.5'), 12_500_000n);
  t.is(toMicros('0.1'), 100_000n);
  t.is(toMicros('-3'), -3_000_000n);
  t.is(toMicros('.25'), 250_000n);
  t.is(toMicros('1.0000005'), 1_000_001n);
  t.is(toMicros(''), null);
  t.is(toMicros('1,5'), null);
  t.is(toMicros('abc'), null);
  t.is(fromMicros(1_234_500_000n, 2), '1234.50');
  t.is(fromMicros(1_234_500_000n, 0), '1235');
  t.is(fromMicros(-5_000n, 2), '-0.01');
  t.is(roundMicros(5_000n, 2), 10_000n);
  t.is(roundMicros(4_999n, 2), 0n);
  t.is(roundMicros(-5_000n, 2), -10_000n);
  t.is(percentOf(toMicros('999.98')!, toMicros('19')!, 2), toMicros('190.00')!); // 189.9962 → 190.00
  t.is(percentOf(toMicros('0.05')!, toMicros('10')!, 2), toMicros('0.01')!); // 0.005 → 0.01, half away from zero
});

test('the totals of the worked example: a reverse-charge tax is not added', (t) => {
  const totals = billTotals('EUR', [
    { amount: '999.98', taxes: [{ rate: '19', amount: null, reverse_charge: false }] },
    { amount: '480', taxes: [{ rate: '19', amount: null, reverse_charge: true }] },
  ], []);
  t.deepEqual(totals, { subtotal: '1479.98', tax: '190.00', adjustments: '0.00', total: '1669.98' });
  t.is(billTotals('USD', [{ amount: '12x', taxes: [] }], []), null);
  t.is(billTotals('USD', [{ amount: '10', taxes: [{ rate: 'ten', amount: null, reverse_charge: false }] }], []), null);
  t.deepEqual(billTotals('USD', [{ amount: '', taxes: [] }], []), { subtotal: '0.00', tax: '0.00', adjustments: '0.00', total: '0.00' });
});

test('a line of quantity × unit price − discount: the unit price rounds after the product, the discount is an amount', (t) => {
  t.is(lineAmount('USD', { amount: '', quantity: '3', unit_price: '19.995', discount: '5' }), '54.99'); // 59.985 → 59.99, less 5
  t.is(lineAmount('USD', { amount: '', quantity: '', unit_price: '12.5' }), '12.50'); // quantity 1 when empty
  t.is(lineAmount('JPY', { amount: '', quantity: '2.5', unit_price: '101', discount: '0.5' }), '252.50'); // 252.5 → 253 yen, less 0.50
  t.is(lineAmount('USD', { amount: '10.005' }), '10.01');
  t.is(lineAmount('USD', { amount: '', quantity: 'two', unit_price: '3' }), null);
  t.deepEqual(billTotals('USD', [{ amount: '', quantity: '4', unit_price: '250', discount: '100', taxes: [{ rate: '10', amount: null, reverse_charge: false }] }], [{ type: 'discount', value: '5', amount: '' }, { type: 'charge', value: null, amount: '12.345' }]), {
    subtotal: '900.00',
    tax: '90.00',
    adjustments: '-32.65', // −45.00 (5 % of 900) + 12.35
    total: '957.35',
  });
  t.is(billTotals('USD', [{ amount: '10', taxes: [] }], [{ type: 'charge', value: null, amount: 'x' }]), null);
});

const cents = fc.integer({ min: 0, max: 100_000_000 }).map((value) => (value / 100).toFixed(2));
const rate = fc.integer({ min: 0, max: 1_000_000 }).map((value) => String(value / 10_000));
const tax = fc.record({ rate: fc.option(rate, { nil: undefined }), amount: cents, reverse_charge: fc.boolean() });
const priced = fc.record({
  quantity: fc.option(fc.integer({ min: 1, max: 100_000_000 }).map((value) => String(value / 1_000_000)), { nil: undefined }),
  unit_price: fc.integer({ min: 1, max: 10_000_000_000 }).map((value) => String(value / 1_000_000)),
  discount: fc.option(fc.integer({ min: 0, max: 100 }).map((value) => (value / 100).toFixed(2)), { nil: undefined }),
});
const item = fc.record({ amount: cents, priced: fc.option(priced, { nil: undefined }), taxes: fc.array(tax, { maxLength: 3 }) });
const adjustment = fc.record({ type: fc.constantFrom('discount' as const, 'charge' as const), value: fc.option(fc.integer({ min: 0, max: 100_000 }).map((value) => String(value / 10_000)), { nil: undefined }), amount: cents });

test('for any bill, the editor shows the totals the server computes (two decimals and none)', (t) => {
  let compared = 0;
  fc.assert(
    fc.property(fc.constantFrom('USD', 'EUR', 'JPY'), fc.array(item, { minLength: 1, maxLength: 5 }), fc.array(adjustment, { maxLength: 2 }), (currency, items, adjustments) => {
      const itemInputs: ItemInput[] = items.map((entry) => ({
        ...(entry.priced
          ? { unit_price: Number(entry.priced.unit_price), ...(entry.priced.quantity !== undefined ? { quantity: Number(entry.priced.quantity) } : {}), ...(entry.priced.discount !== undefined ? { discount: Number(entry.priced.discount) } : {}) }
          : { amount: Number(entry.amount) }),
        taxes: entry.taxes.map((line) => (line.rate !== undefined ? { rate: Number(line.rate), reverse_charge: line.reverse_charge } : { amount: Number(line.amount), reverse_charge: line.reverse_charge })),
      }));
      const adjustmentInputs: AdjustmentInput[] = adjustments.map((entry) => (entry.value !== undefined ? { type: entry.type, value: Number(entry.value) } : { type: entry.type, amount: Number(entry.amount) }));
      let server;
      try {
        server = computeBill({ currency, exchange_rate: '1', base_currency: currency, items: itemInputs, adjustments: adjustmentInputs });
      } catch {
        return true; // a bill the server refuses (discounts beyond it) has no totals to match
      }
      const typed = items.map((entry) => ({ amount: entry.priced ? '' : entry.amount, quantity: entry.priced?.quantity ?? '', unit_price: entry.priced?.unit_price ?? '', discount: entry.priced?.discount ?? '' }));
      if (typed.some((line, index) => toMicros(lineAmount(currency, line) ?? 'x') !== toMicros(server.items[index]!.amount))) return false;
      const shown = billTotals(
        currency,
        items.map((entry, index) => ({ ...typed[index]!, taxes: entry.taxes.map((line) => ({ rate: line.rate ?? '', amount: line.rate === undefined ? line.amount : null, reverse_charge: line.reverse_charge })) })),
        server.adjustments,
      );
      if (!shown) return false;
      compared++;
      return (
        toMicros(shown.subtotal) === toMicros(server.subtotal) &&
        toMicros(shown.tax) === toMicros(server.tax_total) &&
        toMicros(shown.adjustments) === toMicros(server.adjustment_total) &&
        toMicros(shown.total) === toMicros(server.total)
      );
    }),
    { numRuns: 500 },
  );
  t.true(compared > 400, `${compared} bills compared of 500`);
});
