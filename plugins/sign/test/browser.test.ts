/**
 * The Sign app's front-end in Chromium, through the real routes: a sender opens Sign from the
 * launcher, prepares an envelope (uploads a PDF, adds a recipient, places a signature field) and
 * sends it; the envelope's page shows its status, the signing link and the audit trail. Then the
 * external signer opens that link, has a code mailed, draws a signature and signs; the final file
 * is sealed (pdfsig). At 1280 px and 375 px, axe-clean, no CSP violation, nothing wider than the
 * window. The screenshots are the ones docs/apps/sign.md shows.
 */
import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';
import { codeIn, makePdf, poppler } from './helpers.js';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const SENDER = ['sign.envelopes.read', 'sign.envelopes.create'];

let web: WorldBrowser;
let sam: TestMember;
let pdfPath: string;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true }), { link: 'Sign', slug: 'sign', ready: 'sign-envelopes' });
  sam = await web.world.member(SENDER, { name: 'Sam Sender' });
  pdfPath = path.join(await mkdtemp(path.join(tmpdir(), 'sign-browser-')), 'msa.pdf');
  await writeFile(pdfPath, await makePdf('Master services agreement'));
});

test.after.always(() => web?.close());

test.serial('prepare and send an envelope, then sign it as the external signer would (1280 px and 375 px)', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: sam.email });
  await frame.getByText('No envelope yet.').waitFor();
  await checkPage(t, page, frame, 'the envelopes list, empty');
  await frame.getByRole('link', { name: 'Prepare an envelope' }).first().click();
  await page.waitForURL(`${web.origin}/app/sign/new`);
  await frame.getByLabel('Title').fill('MSA with Client');
  await frame.getByLabel('PDF to sign').setInputFiles(pdfPath);
  await frame.getByLabel('Message to the recipients').fill('Please sign the agreement.');
  await frame.getByLabel('Recipient 1 name').fill('Ext One');
  await frame.getByLabel('Recipient 1 e-mail').fill('one@client.test');
  await frame.getByLabel('recipient 1 field 1 from the top (%)').fill('85');
  await checkPage(t, page, frame, 'preparing an envelope');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}sign-prepare-1280.png`);
  await frame.getByRole('button', { name: 'Send for signature' }).click();
  await page.waitForURL(new RegExp(`${web.origin}/app/sign/envelopes/[0-9a-f-]{36}$`));
  await frame.getByText('Out for signature').waitFor();
  const recipients = frame.getByRole('table', { name: 'Recipients' });
  await recipients.getByText('Notified').waitFor();
  await frame.getByRole('table', { name: 'Audit trail' }).getByText('Sent').waitFor();
  const link = (await frame.getByLabel('Signing link of Ext One').textContent())!.trim();
  t.regex(link, /^http:\/\/acme\.localhost:\d+\/public\/apps\/sign\/sign\.html#[A-Za-z0-9_-]{32}$/);
  await checkPage(t, page, frame, 'the sent envelope');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}sign-envelope-1280.png`);
  const [envelope] = ok(await sam.get('/sign/envelopes'));
  t.like(envelope, { title: 'MSA with Client', status: 'sent', message: 'Please sign the agreement.', recipients: [{ name: 'Ext One', email: 'one@client.test', group: 1, fields: [{ type: 'signature', page: 1, x: 0.1, y: 0.85 }] }] });
  await page.context().close();

  // The external signer, on a phone: the link, a code by mail, a drawn signature.
  const signer = await web.newPage(375);
  await signer.goto(link);
  await signer.getByRole('heading', { level: 1, name: 'MSA with Client' }).waitFor();
  await signer.getByText('asks you to sign').waitFor();
  await checkPage(t, signer, null, 'the signing page at 375 px');
  await signer.getByLabel('Draw it').check();
  const pad = signer.getByRole('img', { name: 'Draw your signature here' });
  const box = (await pad.boundingBox())!;
  await signer.mouse.move(box.x + 20, box.y + 60);
  await signer.mouse.down();
  for (const [dx, dy] of [[60, 20], [120, 70], [180, 30], [240, 80]]) await signer.mouse.move(box.x + dx, box.y + dy, { steps: 4 });
  await signer.mouse.up();
  await signer.getByRole('button', { name: 'E-mail me a code' }).click();
  await signer.getByRole('status').getByText('A code is on its way to o…@client.test.').waitFor();
  await signer.getByLabel('Code from the e-mail').fill(codeIn((await web.world.platform.drainMail()) as never, 'one@client.test'));
  await saveScreenshot(signer, `${IMAGES}sign-signer-375.png`);
  await signer.getByRole('button', { name: 'Sign' }).click();
  await signer.getByText('Signed. Everyone has signed').waitFor();
  await checkPage(t, signer, null, 'signed');
  await signer.context().close();

  const completed = ok(await sam.get(`/sign/envelopes/${envelope.id}`));
  t.is(completed.status, 'completed');
  const file = (await web.world.platform.follow(`http://acme.localhost/sign/envelopes/${envelope.id}/document?version=final`, { headers: { cookie: sam.cookie, 'x-api-version': '2026-11-01' } })).bytes;
  t.regex((await poppler('pdfsig', file)).out, /Signature is Valid/);

  const wide = await web.newPage(1280);
  await wide.goto(link);
  await wide.getByRole('alert').waitFor();
  t.is(await wide.getByRole('alert').textContent(), `Envelope ${envelope.id} is completed: there is nothing to sign`, 'a spent link signs nothing more');
  await wide.context().close();
  const back = await web.openApp(375, { email: sam.email });
  await back.frame.getByRole('table', { name: 'Envelopes' }).getByText('Completed').waitFor();
  await back.frame.getByRole('link', { name: 'MSA with Client' }).click();
  await back.frame.getByRole('table', { name: 'Audit trail' }).getByText('Sealed').waitFor();
  await checkPage(t, back.page, back.frame, 'the completed envelope at 375 px');
  await dismissToasts(back.page);
  await saveScreenshot(back.page, `${IMAGES}sign-completed-375.png`);
  await back.page.context().close();
});
