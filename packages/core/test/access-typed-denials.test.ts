import type { ServerRoute } from '@hapi/hapi';
import test from 'ava';
import { ForbiddenError } from '@wpk/sdk';
import { Writable } from 'node:stream';
import { AccessDenied, createLogger, createServer, type WorkspaceService } from '../src/index.js';

// The conventions place a refusal by its type, never by its words: a typed denial is logged with
// the layer, reason and key it carries; an untyped 403 with the membership refusal's exact text
// is still an untyped 403 (layer 3 on a platform route).
test('refusals are placed by their type (layer, reason, key), and answered by status and message alone', async (t) => {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const workspaces = { findBySubdomain: async () => null } as unknown as WorkspaceService;
  const server = await createServer({ host: '127.0.0.1', port: 0, baseDomain: 'localhost', publicUrl: 'http://localhost', allowedHosts: [], requestTimeoutMs: 30_000, workspaces, logger: createLogger('info', sink) });
  const route = (path: string, error: () => Error): ServerRoute => ({ method: 'GET', path, options: { auth: false as const, app: { wpk: { kind: 'system' as const, scope: 'any' as const } } }, handler: () => { throw error(); } });
  server.route([
    route('/typed-membership', () => new AccessDenied(2, 'Wrong workspace', 'the credential belongs to workspace w2')),
    route('/typed-key', () => new AccessDenied(5, 'Missing permission: notes.notes.create', 'lacks notes.notes.create', 'notes.notes.create', 'notes', 'POST /notes in notes')),
    route('/untyped-same-words', () => new ForbiddenError('You are not a member of this workspace')),
    route('/typed-authentication', () => new AccessDenied(1, 'Authentication required')),
  ]);

  const answers = [];
  for (const path of ['/typed-membership', '/typed-key', '/untyped-same-words', '/typed-authentication']) {
    const response = await server.inject({ url: path, headers: { host: 'localhost' } });
    answers.push([response.statusCode, JSON.parse(response.payload)]);
  }
  t.deepEqual(answers, [
    [403, { error: 'Wrong workspace' }],
    [403, { error: 'Missing permission: notes.notes.create' }],
    [403, { error: 'You are not a member of this workspace' }],
    [401, { error: 'Authentication required' }],
  ]);
  const denied = lines.filter((line) => line.msg === 'access denied').map(({ layer, reason, app, permission, explain }) => ({ layer, reason, app, permission, explain }));
  t.deepEqual(denied, [
    { layer: 2, reason: 'the credential belongs to workspace w2', app: undefined, permission: undefined, explain: 'layer 2: the credential belongs to workspace w2 (GET /typed-membership)' },
    { layer: 5, reason: 'lacks notes.notes.create', app: 'notes', permission: 'notes.notes.create', explain: 'layer 5: lacks notes.notes.create (POST /notes in notes)' },
    { layer: 3, reason: 'You are not a member of this workspace', app: undefined, permission: undefined, explain: 'layer 3: You are not a member of this workspace (GET /untyped-same-words)' },
    { layer: 1, reason: 'Authentication required', app: undefined, permission: undefined, explain: 'layer 1: Authentication required (GET /typed-authentication)' },
  ]);
});
