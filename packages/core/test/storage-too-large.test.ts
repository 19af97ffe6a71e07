import test from 'ava';
import net from 'node:net';
import { startTestRuntime, type TestRuntime } from './helpers/runtime.js';

// A PUT /storage whose Content-Length is over the limit is refused at once (issue 38, item 11): a
// 413 and a closed connection, not the request timeout's 408 once the body fails to arrive.
const MAX = 1000;
const CAP_MS = 8_000;
let env: TestRuntime;
let port: number;
let workspaceId: string;

test.before(async () => {
  env = await startTestRuntime({ storage: { maxObjectBytes: MAX } });
  workspaceId = (await env.runtime.workspaces.create({ subdomain: 'acme', name: 'Acme' })).id;
  port = Number(new URL(await env.runtime.start()).port);
});

test.after.always(async () => {
  await env?.close();
});

/** Sends the head and `sent` bytes of the body, then waits: the answer, when it came, and whether the socket closed. */
function upload(path: string, declared: number, sent: number): Promise<{ closed: boolean; answer: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let answeredAt = 0;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`PUT ${path} HTTP/1.1\r\nHost: acme.localhost\r\nContent-Type: text/plain\r\nContent-Length: ${declared}\r\n\r\n`);
      socket.write(Buffer.alloc(sent, 0x61));
    });
    const cap = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, answer: Buffer.concat(chunks).toString('utf8'), ms: answeredAt ? answeredAt - started : CAP_MS });
    }, CAP_MS);
    socket.on('data', (chunk: Buffer) => {
      if (!answeredAt) answeredAt = Date.now();
      chunks.push(chunk);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(cap);
      resolve({ closed: true, answer: Buffer.concat(chunks).toString('utf8'), ms: (answeredAt || Date.now()) - started });
    });
  });
}

test('a PUT /storage declaring more than the limit is answered 413 at once, and the connection closed', async (t) => {
  const storage = env.runtime.storage;
  const scope = { workspaceId, subdomain: 'acme', namespace: 'drive' };
  for (const [label, linkMax, declared, limit] of [
    ['the platform limit', undefined, MAX + 1, MAX],
    ['the link\'s own limit', 100, 101, 100],
  ] as const) {
    const link = await storage.signedUploadUrl(scope, 'big.txt', linkMax === undefined ? {} : { maxBytes: linkMax });
    const { closed, answer, ms } = await upload(new URL(link.url).pathname, declared, 10);
    t.true(closed, `${label}: still open after ${CAP_MS} ms`);
    t.true(ms < 2_000, `${label}: answered after ${ms} ms`);
    const [headers, body] = answer.split('\r\n\r\n');
    t.regex(headers, /^HTTP\/1\.1 413 Payload Too Large\r\n/, label);
    t.regex(headers, /\r\nconnection: close\r\n/i, label);
    t.deepEqual(JSON.parse(body), { error: linkMax === undefined ? `The file is larger than ${limit} bytes, the most this platform stores` : `The file is larger than ${limit} bytes, the most this link accepts` }, label);
  }
  t.deepEqual(await env.runtime.db.sequelize.query('SELECT key FROM platform.storage_objects', { plain: false, raw: true }).then(([rows]) => rows), []);
});
