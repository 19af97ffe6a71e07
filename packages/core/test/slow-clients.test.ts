import test from 'ava';
import net from 'node:net';
import { resolveConfig } from '../src/index.js';
import { startTestRuntime, type TestRuntime } from './helpers/runtime.js';

// A client that declares a body and never sends it all, or never finishes its headers, is cut
// off after the request timeout (issue 11, item 11; it was held 312 s). The timeout is 500 ms
// here; each check gives up at CAP, far below the 10 s default and Node's own 300 s.
const TIMEOUT_MS = 500;
const CAP_MS = 8_000;
let env: TestRuntime;
let port: number;

test.before(async () => {
  env = await startTestRuntime({ requestTimeoutMs: TIMEOUT_MS });
  await env.runtime.workspaces.create({ subdomain: 'acme', name: 'Acme' });
  port = Number(new URL(await env.runtime.start()).port);
});

test.after.always(async () => {
  await env?.close();
});

/** Writes `text` on a fresh socket and reads until the server closes it, or CAP passes. */
function stall(text: string): Promise<{ closed: boolean; answer: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    const cap = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, answer: Buffer.concat(chunks).toString('utf8') });
    }, CAP_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(cap);
      resolve({ closed: true, answer: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

const head = (path: string) => `POST ${path} HTTP/1.1\r\nHost: acme.localhost\r\nX-Api-Version: 2026-11-01\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;

test('a body that stops short of its Content-Length is answered 408 and the connection closed', async (t) => {
  // A public route that reads its body, and a route nobody has (hapi reads the body before its 404).
  for (const path of ['/password-resets', '/no-such-route']) {
    const { closed, answer } = await stall(`${head(path)}{"email":"`);
    t.true(closed, `${path}: still open after ${CAP_MS} ms`);
    const [headers, body] = answer.split('\r\n\r\n');
    t.regex(headers, /^HTTP\/1\.1 408 Request Timeout\r\n/, path);
    t.regex(headers, /\r\nconnection: close\r\n/i, path);
    t.regex(headers, /\r\nx-request-id: [A-Za-z0-9_-]{16}\r\n/i, path);
    t.deepEqual(JSON.parse(body), { error: `The request was not received in full within ${TIMEOUT_MS} ms` }, path);
  }
});

test('headers that never end are cut off too', async (t) => {
  const { closed } = await stall('POST /password-resets HTTP/1.1\r\nHost: acme.localhost\r\nX-Api');
  t.true(closed, `still open after ${CAP_MS} ms`);
});

test('a request sent in full is answered as usual', async (t) => {
  const body = '{"email":"someone@acme.test"}';
  const { closed, answer } = await stall(`POST /password-resets HTTP/1.1\r\nHost: acme.localhost\r\nX-Api-Version: 2026-11-01\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  t.true(closed);
  t.regex(answer, /^HTTP\/1\.1 200 OK\r\n/);
});

test('REQUEST_TIMEOUT_MS is at most 10 s (the default), and at least 100 ms', (t) => {
  t.is(resolveConfig({}, {}).requestTimeoutMs, 10_000);
  t.is(resolveConfig({}, { REQUEST_TIMEOUT_MS: '2500' }).requestTimeoutMs, 2500);
  for (const bad of ['10001', '99', 'soon', '1.5']) {
    const error = t.throws(() => resolveConfig({}, { REQUEST_TIMEOUT_MS: bad }));
    t.is(error?.message, `REQUEST_TIMEOUT_MS must be an integer from 100 to 10000, got ${JSON.stringify(bad)}`);
  }
});
