/**
 * The Sign app's front-end in Chromium, through the real routes: a sender opens Sign from the
 * launcher, prepares an envelope (uploads a two-page PDF, which pdf.js renders, adds a recipient,
 * drags a signature field onto page 1, adds a text field and moves it with the keyboard, to page 2)
 * and sends it; the stored positions are checked through the API; the envelope's page shows its status, the signing link and the audit trail. Then the
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
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type Frame, type Page, type WorldBrowser } from '@wpk/testing/browser';
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
  await writeFile(pdfPath, await makePdf('Master services agreement', 2));
});

/** Drags the palette's `button` onto page `number` of the rendered PDF, let go at (`x`, `y`) as a share of the page; answers the page's size in CSS pixels. */
async function dragOnto(page: Page, frame: Frame, button: string, number: number, x: number, y: number): Promise<{ width: number; height: number }> {
  await frame.locator(`canvas[data-page="${number}"][data-drawn]`).waitFor();
  await frame.getByRole('heading', { name: 'Place the fields' }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  const from = (await frame.getByRole('button', { name: button }).boundingBox())!;
  const to = (await frame.getByRole('img', { name: new RegExp(`^Page ${number} of`) }).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width * x, to.y + to.height * y, { steps: 8 });
  await page.mouse.up();
  return { width: to.width, height: to.height };
}

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
  await frame.getByRole('img', { name: 'Page 2 of 2' }).waitFor();
  // A signature field dragged from Ext One's palette onto page 1, let go a quarter from the left, 15 % from the top.
  const size = await dragOnto(page, frame, 'Add a signature field for Ext One', 1, 0.25, 0.15);
  const grip = frame.getByRole('button', { name: /^Signature for Ext One, page 1, / });
  await grip.waitFor();
  // Its corner handle dragged 5 % of the page to the right makes it wider; Alt+Shift+ArrowDown makes it 5 % higher.
  const handle = (await frame.locator('[data-field] .resize').first().boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 + size.width * 0.05, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  await grip.focus();
  await page.keyboard.press('Alt+Shift+ArrowDown');
  // A text field added from the keyboard lands at the corner of the page in view, and is focused: 3 steps right, 2 big steps down, then to page 2.
  await frame.getByRole('button', { name: 'Add a text field for Ext One' }).focus();
  await page.keyboard.press('Enter');
  const text = frame.getByRole('button', { name: /^Text for Ext One, page 1, 10% from the left, 10% from the top\./ });
  t.true(await text.evaluate((element) => element === (element.getRootNode() as unknown as { activeElement: unknown }).activeElement), 'the new field has the focus');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'Shift+ArrowDown', 'Shift+ArrowDown', 'PageDown']) await page.keyboard.press(key);
  await frame.getByRole('button', { name: /^Text for Ext One, page 2, 11\.5% from the left, 20% from the top\./ }).waitFor();
  // A checkbox added and removed with Delete.
  await frame.getByRole('button', { name: 'Add a checkbox field for Ext One' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Delete');
  t.is(await frame.getByRole('button', { name: /^Checkbox for/ }).count(), 0);
  await frame.getByText('Exact positions (2 fields)').click();
  t.is(await frame.getByLabel('recipient 1 field 2 page').inputValue(), '2');
  await checkPage(t, page, frame, 'preparing an envelope');
  await dismissToasts(page);
  await frame.getByRole('heading', { name: 'Place the fields' }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
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
  t.like(envelope, { title: 'MSA with Client', status: 'sent', message: 'Please sign the agreement.', recipients: [{ name: 'Ext One', email: 'one@client.test', group: 1 }] });
  // Where it was let go, within two CSS pixels of the rendered page; the keyboard's field exactly.
  const [signature, moved] = envelope.recipients[0].fields as { type: string; page: number; x: number; y: number; width: number; height: number }[];
  t.like(signature, { type: 'signature', page: 1, height: 0.11 });
  t.true(Math.abs(signature.width - 0.35) <= 2 / size.width, `width ${signature.width} of a page ${size.width} px wide`);
  t.true(Math.abs(signature.x - 0.25) <= 2 / size.width, `x ${signature.x} of a page ${size.width} px wide`);
  t.true(Math.abs(signature.y - 0.15) <= 2 / size.height, `y ${signature.y} of a page ${size.height} px high`);
  t.like(moved, { type: 'text', page: 2, x: 0.115, y: 0.2, width: 0.4, height: 0.04 });
  t.is(envelope.recipients[0].fields.length, 2);
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
  await signer.getByLabel('Text (required)').fill('Acme Ltd');
  await saveScreenshot(signer, `${IMAGES}sign-signer-375.png`);
  await signer.getByRole('button', { name: 'Sign' }).click();
  await signer.getByText('Signed. Everyone has signed').waitFor();
  await checkPage(t, signer, null, 'signed');
  await signer.context().close();

  const completed = ok(await sam.get(`/sign/envelopes/${envelope.id}`));
  t.is(completed.status, 'completed');
  const file = (await web.world.platform.follow(`http://acme.localhost/sign/envelopes/${envelope.id}/document?version=final`, { headers: { cookie: sam.cookie, 'x-api-version': '2026-11-01' } })).bytes;
  t.regex((await poppler('pdfsig', file)).out, /Signature is Valid/);
  t.regex((await poppler('pdftotext', file, ['-f', '2', '-l', '2'])).out, /Acme Ltd/, 'the text field was flattened on page 2, where the keyboard put it');

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

  // Placing on a phone: the pages fit the width, a field dragged from the palette lands where it is let go.
  await back.frame.getByRole('link', { name: 'Prepare an envelope' }).first().click();
  await back.frame.getByLabel('PDF to sign').setInputFiles(pdfPath);
  await back.frame.getByLabel('Recipient 1 name').fill('Ext Two');
  const phone = await dragOnto(back.page, back.frame, 'Add an initials field for Ext Two', 1, 0.5, 0.1);
  t.true(phone.width <= 375, `the page is ${phone.width} px wide`);
  await back.frame.getByRole('button', { name: /^Initials for Ext Two, page 1, (49\.\d+|50(\.\d+)?)% from the left, (9\.\d+|10(\.\d+)?)% from the top\./ }).waitFor();
  // The exact numbers move it too.
  await back.frame.getByText('Exact positions (1 field)').click();
  await back.frame.getByLabel('recipient 1 field 1 from the top (%)').fill('30');
  await back.frame.getByLabel('recipient 1 field 1 from the top (%)').press('Tab');
  await back.frame.getByRole('button', { name: /^Initials for Ext Two, page 1, (49\.\d+|50(\.\d+)?)% from the left, 30% from the top\./ }).waitFor();
  await back.frame.getByRole('heading', { name: 'Place the fields' }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await checkPage(t, back.page, back.frame, 'placing fields at 375 px');
  await saveScreenshot(back.page, `${IMAGES}sign-prepare-375.png`);
  await back.page.context().close();
});
