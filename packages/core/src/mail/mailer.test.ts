import test from 'ava';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../logger.js';
import { createMailer } from './mailer.js';

test('without SMTP_URL each mail is written, readable as is, under {dataDir}/mail', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wpk-mail-'));
  try {
    const mailer = createMailer({ from: 'Platform <no-reply@example.test>', dataDir, logger: createLogger('silent') });
    const long = `http://acme.localhost:3000/invitations/${'x'.repeat(43)}`;
    const sent = await mailer.send({ to: 'ada@example.test', subject: 'Hello', text: `Join here:\n${long}\n` });
    t.truthy(sent.file);
    t.deepEqual(await readdir(path.join(dataDir, 'mail')), [path.basename(sent.file!)]);
    const text = await readFile(sent.file!, 'utf8');
    t.regex(text, /^From: Platform <no-reply@example\.test>\nTo: ada@example\.test\nSubject: Hello\nDate: .+\nMessage-ID: <.+>\n\nJoin here:\n/);
    t.true(text.includes(`\n${long}\n`));
    mailer.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a header value built from user text stays on one line in both kinds of file: no CR/LF reaches a header', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wpk-mail-'));
  try {
    const mailer = createMailer({ from: 'Platform <no-reply@example.test>', dataDir, logger: createLogger('silent') });
    const subject = 'Ada added you to the group Launch\r\nBcc: attacker@evil.test\r\n\r\nForged body';
    const plain = await readFile((await mailer.send({ to: 'ada@example.test', subject, text: 'Hi' })).file!, 'utf8');
    const [headers] = plain.split('\n\n');
    t.deepEqual(headers!.split('\n').map((line) => line.split(':')[0]), ['From', 'To', 'Subject', 'Date', 'Message-ID']);
    t.true(headers!.includes('\nSubject: Ada added you to the group Launch Bcc: attacker@evil.test Forged body\n'));
    const rich = await readFile((await mailer.send({ to: 'ada@example.test', subject, text: 'Hi', html: '<p>Hi</p>', fromName: 'Chat\nBcc: x@evil.test' })).file!, 'utf8');
    // MIME folds long headers (a line break followed by a space): unfolded, each is one line.
    const [richHeaders] = rich.split('\n\n').map((part) => part.replace(/\n /g, ' '));
    t.false(/^Bcc:/im.test(richHeaders!), richHeaders);
    t.regex(richHeaders!, /^Subject: Ada added you to the group Launch Bcc: attacker@evil\.test Forged body$/m);
    mailer.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
