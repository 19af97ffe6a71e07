import test from 'ava';
import { InvalidError } from '@wpk/sdk';
import { connectionVerifier, isPrivateAddress } from '../src/imap.js';

// A member connecting an account names the servers the platform then talks to: by default none
// may be inside the platform's own networks (MAIL_ALLOW_PRIVATE_HOSTS lifts it).

test('addresses of private, loopback, link-local and reserved networks are private; public ones are not', (t) => {
  const inside = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '198.18.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'];
  const outside = ['8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];
  t.deepEqual(inside.filter((address) => !isPrivateAddress(address)), []);
  t.deepEqual(outside.filter(isPrivateAddress), []);
});

const settings = (imapHost: string, smtpHost: string) => ({
  address: 'ada@example.test',
  imap: { host: imapHost, port: 993, security: 'tls' as const, username: 'ada', password: 'secret' },
  smtp: { host: smtpHost, port: 465, security: 'tls' as const, username: 'ada', password: 'secret' },
});

test('a server on a private network is refused with a 400 naming it, before any login is tried', async (t) => {
  const verify = connectionVerifier(false);
  const imap = await t.throwsAsync(verify(settings('127.0.0.1', '127.0.0.1')));
  t.is(imap?.message, 'imap.host 127.0.0.1 resolves to 127.0.0.1, an address of a private network: connected accounts reach public mail servers only');
  t.true(imap instanceof InvalidError, 'a 400 to the caller');
  const smtp = await t.throwsAsync(verify(settings('8.8.8.8', 'localhost')));
  t.regex(smtp?.message ?? '', /^smtp\.host localhost resolves to (127\.0\.0\.1|::1), an address of a private network/);
  const metadata = await t.throwsAsync(verify(settings('169.254.169.254', '8.8.8.8')));
  t.regex(metadata?.message ?? '', /^imap\.host 169\.254\.169\.254 resolves to 169\.254\.169\.254/);
});
