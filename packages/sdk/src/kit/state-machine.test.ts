import test from 'ava';
import { ConflictError, InvalidError } from '../errors.js';
import { defineStateMachine } from './state-machine.js';

const bill = defineStateMachine({
  name: 'bill',
  states: ['draft', 'received', 'approved', 'void'] as const,
  initial: 'draft',
  moves: {
    receive: { from: ['draft'], to: 'received', event: 'core.finance.bill.received' },
    approve: { from: ['received'], to: 'approved', event: 'core.finance.bill.approved' },
    void: { from: ['draft', 'received', 'approved'], to: 'void' },
  },
});

test('an allowed move answers where it goes and the event it emits', (t) => {
  t.deepEqual(bill.move('received', 'approve'), { move: 'approve', from: 'received', to: 'approved', event: 'core.finance.bill.approved' });
  t.deepEqual(bill.moveTo('approved', 'void'), { move: 'void', from: 'approved', to: 'void', event: undefined });
  t.deepEqual(bill.movesFrom('draft'), ['receive', 'void']);
  t.true(bill.can('draft', 'receive'));
  t.false(bill.can('void', 'receive'));
});

test('a refused move is a 409 naming both states', (t) => {
  const byMove = t.throws(() => bill.move('draft', 'approve'), { instanceOf: ConflictError });
  t.is(byMove?.message, 'Cannot approve a bill in state draft: approve moves from received to approved');
  const byTarget = t.throws(() => bill.moveTo('void', 'approved'), { instanceOf: ConflictError });
  t.is(byTarget?.message, 'Cannot move a bill from void to approved: approved is reached from received');
  t.is(t.throws(() => bill.moveTo('draft', 'draft'), { instanceOf: ConflictError })?.message, 'The bill is already draft');
  t.is(t.throws(() => bill.moveTo('draft', 'paid'), { instanceOf: InvalidError })?.message, 'status must be one of draft, received, approved, void');
});

test('a name starting with a vowel takes "an" in the refusals', (t) => {
  const offer = defineStateMachine({ name: 'offer', states: ['draft', 'sent'] as const, initial: 'draft', moves: { send: { from: ['draft'], to: 'sent' } } });
  t.is(t.throws(() => offer.move('sent', 'send'), { instanceOf: ConflictError })?.message, 'Cannot send an offer in state sent: send moves from draft to sent');
  t.is(t.throws(() => offer.moveTo('sent', 'draft'), { instanceOf: ConflictError })?.message, 'Cannot move an offer from sent to draft: nothing moves to draft');
});

test('a machine naming a state it does not list is refused when declared', (t) => {
  t.throws(() => defineStateMachine({ name: 'job', states: ['draft', 'open'] as const, initial: 'draft', moves: { close: { from: ['open'], to: 'closed' as 'open' } } }), { message: 'defineStateMachine(job): move close names closed, which is not a state' });
  t.throws(() => defineStateMachine({ name: 'job', states: ['draft'] as const, initial: 'open' as 'draft', moves: {} }), { message: 'defineStateMachine(job): the initial state open is not a state' });
});
