import test from 'ava';
import { EventPayloadError, payloadChecker, withoutNulls } from './payload-check.js';

const checker = payloadChecker([
  {
    action: 'ext.acme.hello.greeting.sent',
    schema: {
      type: 'object',
      properties: { greeting_id: { type: 'string' }, text: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, by: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      required: ['greeting_id', 'text'],
      additionalProperties: false,
    },
  },
]);

test('a payload that conforms passes; nulls are removed first, at any depth', (t) => {
  t.notThrows(() => checker.check('ext.acme.hello.greeting.sent', { greeting_id: 'g1', text: 'hi', tags: ['a'], by: { id: 'm1', name: null } as never }));
  t.notThrows(() => checker.check('ext.acme.hello.greeting.sent', { greeting_id: 'g1', text: 'hi', by: null }));
  t.deepEqual(withoutNulls({ a: null, b: { c: null, d: 1 }, e: [null, { f: null }] }), { b: { d: 1 }, e: [null, {}] });
});

test('a payload that breaks the schema throws EventPayloadError naming the action and each failing path', (t) => {
  const error = t.throws(() => checker.check('ext.acme.hello.greeting.sent', { greeting_id: 42, tags: ['a', 7], extra: true }), { instanceOf: EventPayloadError });
  t.is(error!.action, 'ext.acme.hello.greeting.sent');
  t.deepEqual(error!.problems, [
    { path: 'text', message: 'is required' },
    { path: 'extra', message: 'is not allowed here' },
    { path: 'greeting_id', message: 'must be string' },
    { path: 'tags[1]', message: 'must be string' },
  ]);
  t.is(error!.message, 'ext.acme.hello.greeting.sent: the payload breaks its schema in the manifest: text is required; extra is not allowed here; greeting_id must be string; tags[1] must be string');
  // A required field given as null is missing.
  t.deepEqual(checker.problems('ext.acme.hello.greeting.sent', { greeting_id: 'g1', text: null }), [{ path: 'text', message: 'is required' }]);
});

test('an action the checker does not know passes (declaration is checked by the caller)', (t) => {
  t.deepEqual(checker.problems('ext.acme.hello.other.thing', { anything: 1 }), []);
});
