import test from 'ava';
import { generateKeyPairSync, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FcmPhonePushProvider } from './phone-push.js';
import type { PushMessage } from './push-payload.js';

// The FCM adapter against a local stand-in for Google's token endpoint and FCM's HTTP v1 API:
// the service-account JWT it signs, the message it sends, and what each answer means.

const message: PushMessage = { id: 'n-1', kind: 'app.install_requested', channel: 'apps', title: 'Rick asks to install Notes', body: 'Please', link: '/applications/notes/status', sound: 'chime', workspace: 'acme' };

test('FCM: a service-account token (RS256 JWT grant) once, then messages:send per push; 404 means unregistered', async (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const seen: Array<{ path: string; authorization?: string; body: string }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      if (request.url === '/token') {
        const assertion = new URLSearchParams(body).get('assertion') ?? '';
        const [header, claims, signature] = assertion.split('.');
        const valid = verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'));
        const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
        const ok = valid && parsed.iss === 'push@project.iam.gserviceaccount.com' && parsed.scope === 'https://www.googleapis.com/auth/firebase.messaging' && parsed.aud === `${origin}/token` && parsed.exp - parsed.iat === 3600;
        return void response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { access_token: 'ya29.test', expires_in: 3600, token_type: 'Bearer' } : { error: 'invalid_grant' }));
      }
      if (request.headers.authorization !== 'Bearer ya29.test') return void response.writeHead(401).end('{}');
      const token = JSON.parse(body).message.token;
      if (token === 'gone-token') return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404,"status":"NOT_FOUND","message":"Requested entity was not found."}}');
      if (token === 'busy-token') return void response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":503,"status":"UNAVAILABLE","message":"try later"}}');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"projects/p1/messages/0:1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const provider = new FcmPhonePushProvider(
      { project_id: 'p1', client_email: 'push@project.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), token_uri: `${origin}/token` },
      { apiBase: origin },
    );
    t.deepEqual(await provider.send({ token: 'phone-token-1', platform: 'android' }, message), { status: 'sent', id: 'projects/p1/messages/0:1' });
    t.deepEqual(await provider.send({ token: 'gone-token', platform: 'ios' }, message), { status: 'unregistered' });
    t.deepEqual(await provider.send({ token: 'busy-token', platform: 'ios' }, message), { status: 'failed', error: 'FCM 503: try later' });
    t.deepEqual(
      seen.map((request) => request.path),
      ['/token', '/v1/projects/p1/messages:send', '/v1/projects/p1/messages:send', '/v1/projects/p1/messages:send'],
    );
    t.deepEqual(JSON.parse(seen[1].body), {
      message: {
        token: 'phone-token-1',
        notification: { title: 'Rick asks to install Notes', body: 'Please' },
        data: { id: 'n-1', kind: 'app.install_requested', channel: 'apps', link: '/applications/notes/status', workspace: 'acme' },
        android: { notification: { sound: 'chime' } },
        apns: { payload: { aps: { sound: 'chime' } } },
      },
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
