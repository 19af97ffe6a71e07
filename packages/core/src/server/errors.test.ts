import test from 'ava';
import Boom from '@hapi/boom';
import { ConflictError, InvalidError } from '@wpk/sdk';
import Joi from 'joi';
import { UniqueConstraintError } from 'sequelize';
import { inputPath, toErrorAnswer, validationFailure } from './errors.js';

test('domain errors keep their status and message', (t) => {
  t.deepEqual(toErrorAnswer(new ConflictError('subdomain "acme" is already taken'), 'r1'), { status: 409, body: { error: 'subdomain "acme" is already taken' }, headers: {}, fault: false });
});

test('a unique-constraint race is a 409 naming the fields, not a fault', (t) => {
  const error = new UniqueConstraintError({ fields: { workspace_id: 'w', name: 'Ops' } });
  t.deepEqual(toErrorAnswer(error, 'r2'), { status: 409, body: { error: 'A record with this name already exists', field: 'name' }, headers: {}, fault: false });
  const two = new UniqueConstraintError({ fields: { workspace_id: 'w', name: 'Ops', slug: 'ops' } });
  t.deepEqual(toErrorAnswer(two, 'r2').body, { error: 'A record with this name, slug already exists' });
});

test('a domain error given a field answers it beside the unchanged message', (t) => {
  t.deepEqual(toErrorAnswer(new ConflictError('ada@example.com is already a member of this workspace', { field: 'email' }), 'r5').body, { error: 'ada@example.com is already a member of this workspace', field: 'email' });
  t.deepEqual(toErrorAnswer(new InvalidError('password length must be at least 12 characters long', { field: 'password' }), 'r6'), { status: 400, body: { error: 'password length must be at least 12 characters long', field: 'password' }, headers: {}, fault: false });
});

test("a joi failure's field is its path as joi labels it", (t) => {
  const schema = Joi.object({ a: Joi.object({ b: Joi.array().items(Joi.object({ c: Joi.number() })) }) });
  const { error } = schema.validate({ a: { b: [{ c: 1 }, { c: 'x' }] } }, { errors: { wrap: { label: false } } });
  t.deepEqual(toErrorAnswer(validationFailure('payload', error!), 'r7').body, { error: 'a.b[1].c must be a number', field: 'a.b[1].c' });
  t.deepEqual(toErrorAnswer(validationFailure('query', error!), 'r8').body, { error: 'query parameter a.b[1].c must be a number', field: 'a.b[1].c' });
  t.is(inputPath([]), '');
  t.is(inputPath([0, 'x', 2]), '[0].x[2]');
});

test('anything else is a 500 with the request id and no cause', (t) => {
  const answer = toErrorAnswer(new Error('password=hunter2'), 'r3');
  t.deepEqual(answer, { status: 500, body: { error: 'An unexpected error occurred (request id r3)' }, headers: {}, fault: true });
});

test('a file path too long for the file system is a 404, not a fault', (t) => {
  const error = Boom.boomify(Object.assign(new Error('ENAMETOOLONG: name too long'), { code: 'ENAMETOOLONG' }), { message: 'Failed to open file' });
  t.deepEqual(toErrorAnswer(error, 'r4'), { status: 404, body: { error: 'Not Found' }, headers: {}, fault: false });
});
