import test from 'ava';
import { Writable } from 'node:stream';
import { QueryTypes } from 'sequelize';
import { createLogger } from '../src/index.js';
import { addMember, json, keyedWorkspace, startKeysRuntime } from './helpers/keys.js';

test('every refusal is logged with its layer and reason; app-route refusals emit system.security.permission.denied', async (t) => {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const env = await startKeysRuntime({ logger: createLogger('info', sink) });
  t.teardown(() => env.close());
  const acme = await keyedWorkspace(env, 'acme');
  const globex = await keyedWorkspace(env, 'globex');
  const inject = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
    env.runtime.server.inject({ method, url, headers: payload ? { ...headers, 'content-type': 'application/json' } : headers, payload });
  t.is((await inject('POST', '/applications/notes/installations', acme.as(acme.ownerKey), {})).statusCode, 200);
  const memberId = await addMember(env, acme, 'm@acme.test');
  const memberKey = (await env.runtime.apiKeys.issueFullAccessKey(acme.id, memberId, 'm')).secret;
  const reader = json(await inject('POST', '/api-keys', acme.as(acme.ownerKey), { name: 'reader', scopes: ['notes.notes.read'] })).data.secret;

  const layer4 = await inject('GET', '/notes', acme.as(memberKey));
  t.deepEqual([layer4.statusCode, json(layer4)], [403, { error: "You don't have access to this app" }]);
  const layer5 = await inject('POST', '/notes', acme.as(reader), { title: 'x' });
  t.deepEqual([layer5.statusCode, json(layer5)], [403, { error: 'Missing permission: notes.notes.create' }]);
  const layer2 = await inject('GET', '/notes', globex.as(acme.ownerKey));
  t.is(layer2.statusCode, 403);
  const layer3 = await inject('GET', '/api-keys', acme.as(memberKey));
  t.is(layer3.statusCode, 403);
  const layer1 = await inject('GET', '/notes', acme.as('slk_nope'));
  t.is(layer1.statusCode, 401);

  const denied = lines.filter((line) => line.msg === 'access denied');
  t.deepEqual(
    denied.map((line) => [line.layer, line.route, line.member_id]),
    [
      [4, 'GET /notes', memberId],
      [5, 'POST /notes', acme.ownerId],
      [2, 'GET /notes', null],
      [3, 'GET /api-keys', memberId],
      [1, 'GET /notes', null],
    ],
  );
  t.regex(String(denied[1].explain), /^layer 5: .*notes\.notes\.create.* \(POST \/notes in notes\)$/);
  t.is(denied[3].explain, 'layer 3: Only workspace owners and admins can manage API keys (GET /api-keys)');
  t.is(denied[4].explain, 'layer 1: Invalid, revoked, or expired API key (GET /notes)');

  await env.runtime.events.settled().catch(() => {});
  const rows = await env.runtime.db.sequelize.query<{ payload: Record<string, unknown>; metadata: Record<string, unknown> }>(
    `SELECT payload, metadata FROM platform.events WHERE action = 'system.security.permission.denied' AND workspace_id = :ws ORDER BY created_at`,
    { type: QueryTypes.SELECT, replacements: { ws: acme.id } },
  );
  t.deepEqual(
    rows.map((row) => row.payload),
    [
      { member_id: memberId, permission: 'app_access', app_slug: 'notes', route: 'GET /notes' },
      { member_id: acme.ownerId, permission: 'notes.notes.create', app_slug: 'notes', route: 'POST /notes' },
    ],
  );
  t.deepEqual(rows.map((row) => row.metadata.layer), [4, 5]);
});
