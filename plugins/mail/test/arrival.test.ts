/**
 * The listener's transport and the checks on arrival: STARTTLS with a certificate generated
 * into the data directory, and SPF and DMARC (mailauth, through the test's DNS zone) recorded on
 * each message, `p=quarantine` filing in spam and `p=reject` refused at the end of DATA.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { prepareWorld } from '@wpk/testing';
import nodemailer from 'nodemailer';
import { loadTls } from '../src/tls.js';
import { mailWorld, type World } from './helpers/world.js';

interface Context extends World {
  dataDir: string;
  ana: Awaited<ReturnType<World['member']>>;
  box: { id: string; address: string };
}

const test = anyTest as TestFn<Context>;

test.before(async (t) => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpk-mail-tls-'));
  const world = await mailWorld('arrival', { tls: { generateInto: dataDir } });
  t.context = await prepareWorld(world, async () => {
    const domainId = await world.hostedDomain('home.test');
    const ana = await world.member(['mail.accounts.read', 'mail.messages.read']);
    const box = await world.mailbox(domainId, 'ana', ana);
    world.dns.publishTxt('good.test', 'v=spf1 ip4:127.0.0.1 -all');
    world.dns.publishTxt('_dmarc.good.test', 'v=DMARC1; p=reject');
    world.dns.publishTxt('forged.test', 'v=spf1 ip4:192.0.2.1 -all');
    world.dns.publishTxt('_dmarc.forged.test', 'v=DMARC1; p=reject');
    world.dns.publishTxt('doubtful.test', 'v=spf1 ip4:192.0.2.1 -all');
    world.dns.publishTxt('_dmarc.doubtful.test', 'v=DMARC1; p=quarantine');
    world.takeEvents();
    return { ...world, dataDir, ana, box };
  });
});
test.after.always(async (t) => {
  await t.context?.close();
  if (t.context?.dataDir) await fs.rm(t.context.dataDir, { recursive: true, force: true });
});

test.serial('STARTTLS: the listener offers the certificate generated into the data directory, and keeps it across starts', async (t) => {
  const cert = await fs.readFile(path.join(t.context.dataDir, 'mail-tls-cert.pem'), 'utf8');
  t.regex(cert, /^-----BEGIN CERTIFICATE-----/);
  const key = await fs.stat(path.join(t.context.dataDir, 'mail-tls-key.pem'));
  t.is(key.mode & 0o777, 0o600, 'the private key is readable by its owner only');
  t.deepEqual(await loadTls({ generateInto: t.context.dataDir }, 'mx.mail.test'), { key: await fs.readFile(path.join(t.context.dataDir, 'mail-tls-key.pem'), 'utf8'), cert }, 'read back, not made again');

  // The client insists on STARTTLS and trusts only that certificate for mx.mail.test.
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: t.context.port, secure: false, requireTLS: true, tls: { ca: [cert], servername: 'mx.mail.test' } });
  const info = await client.sendMail({ from: 'bob@good.test', to: t.context.box.address, subject: 'Over TLS', text: 'Encrypted in transit' });
  t.regex(info.response, /^250 /);
  const other = nodemailer.createTransport({ host: '127.0.0.1', port: t.context.port, secure: false, requireTLS: true, tls: { ca: [cert], servername: 'other.test' } });
  const refused = await t.throwsAsync(other.sendMail({ from: 'bob@good.test', to: t.context.box.address, subject: 'x', text: 'x' }));
  t.regex(refused!.message, /other\.test/, 'the certificate names the listener, not any host');
  const arrived = (await t.context.ana.get(`/mail/accounts/${t.context.box.id}/messages?q=tls`)).body.data;
  t.deepEqual(arrived.map((row: { subject: string }) => row.subject), ['Over TLS']);
  t.context.takeEvents();
});

test.serial('SPF and DMARC are evaluated on arrival and recorded on the message; p=quarantine files it in spam; p=reject refuses it with 550', async (t) => {
  const { ana, box, port } = t.context;
  const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  await client.sendMail({ from: 'bob@good.test', to: box.address, subject: 'Aligned', text: 'x' });
  await client.sendMail({ from: 'carl@doubtful.test', to: box.address, subject: 'Doubtful', text: 'x' });
  await client.sendMail({ from: 'dora@nowhere.test', to: box.address, subject: 'Unchecked', text: 'x' });
  const rejected = await t.throwsAsync(client.sendMail({ from: 'ceo@forged.test', to: box.address, subject: 'Wire the money', text: 'x' }));
  t.regex(rejected!.message, /550 5\.7\.1 The domain of forged\.test asks receivers to reject mail that fails DMARC, and this message fails it/);

  const read = async (folder: string) =>
    (await ana.get(`/mail/accounts/${box.id}/messages?folder=${folder}`)).body.data
      .filter((row: { subject: string }) => row.subject !== 'Over TLS')
      .map((row: { subject: string; spf: string; dmarc: string; dkim: string }) => [row.subject, row.spf, row.dmarc, row.dkim]);
  t.deepEqual(await read('inbox'), [
    ['Unchecked', 'none', 'none', 'none'],
    ['Aligned', 'pass', 'pass', 'none'],
  ]);
  t.deepEqual(await read('spam'), [['Doubtful', 'fail', 'fail', 'none']]);
  t.deepEqual(
    t.context.takeEvents().map((event) => event.payload.subject),
    ['Aligned', 'Doubtful', 'Unchecked'],
    'the rejected message was neither stored nor announced',
  );
});
