/**
 * The Signing certificate screen in Chromium, through the real routes: an admin opens it from the
 * app's navigation, sees the generated certificate, uploads a PKCS#12 file made by a test CA (a
 * wrong passphrase first: the server's refusal shows), then, on a phone, goes back to the generated
 * certificate. At 1280 px and 375 px, axe-clean, no CSP violation, nothing wider than the window.
 * The screenshots are the ones docs/apps/sign.md shows.
 */
import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ok, startWorld } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';
import { fingerprint, p12, testCa } from './ca.js';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const PASSPHRASE = 'an organisation passphrase';

let web: WorldBrowser;
let p12Path: string;
const ca = testCa();

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true }), { link: 'Sign', slug: 'sign', ready: 'sign-envelopes' });
  p12Path = path.join(await mkdtemp(path.join(tmpdir(), 'sign-certificate-browser-')), 'acme-signer.p12');
  await writeFile(p12Path, Buffer.from(p12(ca.leaf.key, [ca.leaf.cert, ca.intermediate.cert, ca.root.cert], PASSPHRASE), 'base64'));
});

test.after.always(() => web?.close());

test.serial('an admin uploads the organisation\'s certificate and goes back to the generated one (1280 px and 375 px)', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('link', { name: 'Signing certificate' }).click();
  await page.waitForURL(`${web.origin}/app/sign/certificate`);
  const table = frame.getByRole('table', { name: 'Certificate in use' });
  await table.getByText('Generated (self-signed)').waitFor();
  await checkPage(t, page, frame, 'the generated certificate');

  await frame.getByLabel('Certificate file (.p12, .pfx)').setInputFiles(p12Path);
  await frame.getByLabel('Passphrase').fill('not the passphrase');
  await frame.getByRole('button', { name: 'Upload certificate' }).click();
  await frame.getByRole('alert').getByText('passphrase does not open the PKCS#12 file').waitFor();
  await checkPage(t, page, frame, 'a refused upload');
  t.is(ok(await web.world.owner.get('/sign/certificate')).source, 'generated', 'the refusal changed nothing');

  await frame.getByLabel('Passphrase').fill(PASSPHRASE);
  await frame.getByRole('button', { name: 'Upload certificate' }).click();
  await table.getByText('Uploaded').waitFor();
  await table.getByText('CN=Acme Signing Leaf, O=Acme Corp').waitFor();
  await table.getByText(fingerprint(ca.leaf.cert)).waitFor();
  t.is((await table.getByRole('row', { name: /Certificates in each signature/ }).getByRole('cell').textContent())?.trim(), '3');
  await checkPage(t, page, frame, 'the uploaded certificate');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}sign-certificate-1280.png`);
  t.like(ok(await web.world.owner.get('/sign/certificate')), { source: 'uploaded', common_name: 'Acme Signing Leaf', chain_length: 3 });
  await page.context().close();

  const phone = await web.openApp(375);
  await phone.frame.getByRole('link', { name: 'Signing certificate' }).click();
  const small = phone.frame.getByRole('table', { name: 'Certificate in use' });
  await small.getByText('Uploaded').waitFor();
  await checkPage(t, phone.page, phone.frame, 'the uploaded certificate at 375 px');
  await dismissToasts(phone.page);
  await saveScreenshot(phone.page, `${IMAGES}sign-certificate-375.png`);
  await phone.frame.getByRole('button', { name: 'Go back to the generated certificate' }).click();
  await small.getByText('Generated (self-signed)').waitFor();
  await checkPage(t, phone.page, phone.frame, 'back to the generated certificate at 375 px');
  t.is(ok(await web.world.owner.get('/sign/certificate')).source, 'generated');
  await phone.page.context().close();
});
