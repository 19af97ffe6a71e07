import test from 'ava';
import { ConflictError } from '../errors.js';
import { conflictOnDuplicate, likePattern, newId } from './queries.js';

test('likePattern matches the text literally, anywhere or as a prefix', (t) => {
  t.is(likePattern('50%_off\\'), '%50\\%\\_off\\\\%');
  t.is(likePattern('ACME-4', 'prefix'), 'ACME-4%');
  t.is(likePattern('50%_off\\', 'exact'), '50\\%\\_off\\\\');
});

test('conflictOnDuplicate turns a unique violation into a 409 and rethrows anything else', async (t) => {
  const unique = Object.assign(new Error('duplicate'), { name: 'SequelizeUniqueConstraintError' });
  await t.throwsAsync(conflictOnDuplicate(Promise.reject(unique), 'A board with this title exists'), { instanceOf: ConflictError, message: 'A board with this title exists' });
  const other = new Error('connection lost');
  t.is(await t.throwsAsync(conflictOnDuplicate(() => Promise.reject(other), 'x')), other);
  t.is(await conflictOnDuplicate(async () => 7, 'x'), 7);
});

test('newId makes distinct UUIDs', (t) => {
  const [a, b] = [newId(), newId()];
  t.regex(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.not(a, b);
});
