import test from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shellApi, type ShellContext } from '../src/shell/api.js';

/**
 * The shell's calls against a real HTTP server that answers each request as the test scripts it.
 * The shell asks for same-origin paths; here `fetch` is given this server as the origin.
 */
const context: ShellContext = {
  apiVersion: '2026-01-01',
  member: { id: 'm1', name: 'Ann', email: 'ann@example.com', platform_role: 'member' },
  workspace: { id: 'w1', name: 'Acme', subdomain: 'acme' },
  app: null,
  apps: null,
};

type Answer = (request: IncomingMessage, response: ServerResponse) => void;
const cut: Answer = (request) => request.socket.destroy();
const bare400: Answer = (_request, response) => response.writeHead(400).end();
const json = (status: number, body: unknown): Answer => (_request, response) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function serve(answers: Answer[]): Promise<{ seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers['x-api-version']}`);
    (answers[seen.length - 1] ?? json(500, { error: 'unscripted' }))(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const real = globalThis.fetch;
  globalThis.fetch = ((input: string, init?: RequestInit) => real(new URL(input, origin), init)) as typeof fetch;
  return {
    seen,
    close: async () => {
      globalThis.fetch = real;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test.serial('a GET is asked again after a cut connection and a bare 400, then answers what the server said', async (t) => {
  const server = await serve([cut, bare400, json(200, { data: [{ id: 'm1' }] })]);
  try {
    t.deepEqual(await shellApi(context, 'GET', '/members?page=1'), { data: [{ id: 'm1' }] });
    t.deepEqual(server.seen, ['GET /members?page=1 2026-01-01', 'GET /members?page=1 2026-01-01', 'GET /members?page=1 2026-01-01']);
  } finally {
    await server.close();
  }
});

test.serial("a GET gives up after three transient failures, with the last one's message", async (t) => {
  const server = await serve([bare400, json(503, { error: 'busy' }), json(502, { error: 'the gateway' })]);
  try {
    await t.throwsAsync(shellApi(context, 'GET', '/members'), { message: 'the gateway' });
    t.is(server.seen.length, 3);
  } finally {
    await server.close();
  }
});

test.serial("a refusal is final: the platform's error, asked once", async (t) => {
  const server = await serve([json(404, { error: 'No member m9 in this workspace' })]);
  try {
    await t.throwsAsync(shellApi(context, 'GET', '/members/m9'), { message: 'No member m9 in this workspace' });
    t.is(server.seen.length, 1);
  } finally {
    await server.close();
  }
});

test.serial('a write is never sent twice: a POST whose connection is cut fails at once', async (t) => {
  const server = await serve([cut, json(201, { id: 'x' })]);
  try {
    await t.throwsAsync(shellApi(context, 'POST', '/me/notifications/read', {}));
    t.deepEqual(server.seen, ['POST /me/notifications/read 2026-01-01']);
  } finally {
    await server.close();
  }
});
