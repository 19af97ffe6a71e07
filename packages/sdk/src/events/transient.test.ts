import test from 'ava';
import { ConnectionError, ConnectionRefusedError, DatabaseError, TimeoutError, UniqueConstraintError } from 'sequelize';
import { RetryDeliveryError } from './delivery.js';
import { classifyHandlerError, isTransientError } from './transient.js';

/** An error as the pg driver raises it: a message and a SQLSTATE code. */
const pgError = (code: string, message = `pg ${code}`) => Object.assign(new Error(message), { code });
/** The same error as Sequelize hands it to a handler. */
const wrapped = (code: string) => new DatabaseError(pgError(code) as never);

test('serialization failure, deadlock, unique violation, lock and statement timeouts, shutdowns and lost connections are transient', (t) => {
  for (const code of ['40001', '40P01', '23505', '55P03', '57014', '57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08004', '08P01']) {
    t.true(isTransientError(pgError(code)), `${code} from pg`);
    t.true(isTransientError(wrapped(code)), `${code} wrapped by Sequelize`);
  }
  for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']) t.true(isTransientError(pgError(code)), code);
  t.true(isTransientError(new UniqueConstraintError({ parent: pgError('23505') as never })));
  t.true(isTransientError(new ConnectionError(new Error('gone'))));
  t.true(isTransientError(new ConnectionRefusedError(new Error('refused'))));
  t.true(isTransientError(new TimeoutError(new Error('timeout') as never)));
  t.true(isTransientError(new Error('Connection terminated unexpectedly')));
  t.true(isTransientError(new RetryDeliveryError()));
  t.true(isTransientError(new Error('outer', { cause: pgError('40001') })), 'a wrapped cause counts');
});

test('any other failure is permanent', (t) => {
  for (const code of ['23503', '23502', '22P02', '22001', '42P01', '42703', '42501', 'ENOENT']) {
    t.false(isTransientError(pgError(code)), code);
    t.false(isTransientError(wrapped(code)), `${code} wrapped by Sequelize`);
  }
  t.false(isTransientError(new Error('this handler cannot cope')));
  t.false(isTransientError(new TypeError("Cannot read properties of undefined (reading 'id')")));
  t.false(isTransientError('a string'));
  t.false(isTransientError(null));
  t.false(isTransientError(undefined));
  const loop: Error & { cause?: unknown } = new Error('loop');
  loop.cause = loop;
  t.false(isTransientError(loop), 'a cycle of causes ends');
});

test('classifyHandlerError names what the platform does with a failure', (t) => {
  t.is(classifyHandlerError(new RetryDeliveryError('later')), 'transient');
  t.is(classifyHandlerError(wrapped('40P01')), 'transient');
  t.is(classifyHandlerError(new Error('a bug')), 'permanent');
  t.is(classifyHandlerError(wrapped('23503')), 'permanent');
});
