import test from 'ava';
import Boom from '@hapi/boom';
import { ConflictError } from '@wpk/sdk';
import { UniqueConstraintError } from 'sequelize';
import { toErrorAnswer } from './errors.js';

test('domain errors keep their status and message', (t) => {
  t.deepEqual(toErrorAnswer(new ConflictError('subdomain "acme" is already taken'), 'r1'), { status: 409, body: { error: 'subdomain "acme" is already taken' }, headers: {}, fault: false });
});

test('a unique-constraint race is a 409 naming the fields, not a fault', (t) => {
  const error = new UniqueConstraintError({ fields: { workspace_id: 'w', name: 'Ops' } });
  t.deepEqual(toErrorAnswer(error, 'r2'), { status: 409, body: { error: 'A record with this name already exists' }, headers: {}, fault: false });
});

test('anything else is a 500 with the request id and no cause', (t) => {
  const answer = toErrorAnswer(new Error('password=hunter2'), 'r3');
  t.deepEqual(answer, { status: 500, body: { error: 'An unexpected error occurred (request id r3)' }, headers: {}, fault: true });
});

test('a file path too long for the file system is a 404, not a fault', (t) => {
  const error = Boom.boomify(Object.assign(new Error('ENAMETOOLONG: name too long'), { code: 'ENAMETOOLONG' }), { message: 'Failed to open file' });
  t.deepEqual(toErrorAnswer(error, 'r4'), { status: 404, body: { error: 'Not Found' }, headers: {}, fault: false });
});
