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
