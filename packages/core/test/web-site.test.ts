import test from 'ava';
import { checkPage, declareWebEnv, rawRequest, WIDTHS } from './helpers/web.js';

const web = declareWebEnv(test);

const SITE_PAGES: Array<[string, string]> = [
  ['/', 'Workspace Platform'],
  ['/pricing', 'Pricing'],
  ['/about', 'About'],
  ['/privacy', 'Privacy'],
  ['/terms', 'Terms'],
  ['/login', 'Sign in'],
  ['/signup', 'Create a workspace'],
  ['/verify', 'Check your mail'],
  ['/reset-password', 'Reset your password'],
];

for (const width of WIDTHS) {
  test.serial(`site pages answer HTML with no version header, pass axe and fit ${width} px`, async (t) => {
    const context = await web.context(width, t.title);
    const page = await context.newPage();
    for (const [path, heading] of SITE_PAGES) {
      const answer = await page.goto(web.url(null, path));
      t.is(answer?.status(), 200, path);
      t.regex(answer?.headers()['content-type'] ?? '', /^text\/html/, path);
      t.is(await page.locator('h1').first().textContent(), heading, path);
      await checkPage(t, page, path);
    }
  });
}

test.serial('robots.txt, sitemap.xml, the well-known documents and fingerprinted assets', async (t) => {
  const origin = web.url(null, '');
  const get = (path: string, subdomain: string | null = null) => rawRequest(web, subdomain, path);
  const robots = await get('/robots.txt');
  t.is(robots.status, 200);
  t.is(robots.text, `User-agent: *\nDisallow: /partials/\nDisallow: /verify\nDisallow: /invitations/\nDisallow: /password-resets/\nSitemap: ${origin}/sitemap.xml\n`);
  t.is((await get('/robots.txt', 'acme')).text, 'User-agent: *\nDisallow: /\n');
  const sitemap = (await get('/sitemap.xml')).text;
  t.deepEqual([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]), ['/', '/pricing', '/about', '/privacy', '/terms', '/signup', '/login'].map((path) => `${origin}${path}`));
  const apple = await get('/.well-known/apple-app-site-association');
  t.is(apple.status, 200);
  t.deepEqual(JSON.parse(apple.text), { applinks: { details: [] }, webcredentials: { apps: [] } });
  t.deepEqual(JSON.parse((await get('/.well-known/assetlinks.json')).text), []);

  const css = /href="(\/assets\/site\.[0-9a-f]{10}\.css)"/.exec((await get('/')).text)?.[1];
  t.truthy(css, 'the page links the fingerprinted stylesheet');
  const asset = await get(css!);
  t.is(asset.status, 200);
  t.is(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  t.regex(String(asset.headers['content-type']), /^text\/css/);
  const stale = await get('/assets/site.0000000000.css');
  t.is(stale.status, 404);
  t.deepEqual(JSON.parse(stale.text), { error: 'No asset site.0000000000.css' });
  t.is((await get('/public/icon.svg')).status, 200);
  // inert confines /public/* to its folder.
  t.is((await get('/public/..%2Fassets%2Fsite.css')).status, 403);
});

test.serial('POST / sends a demo request to the operator only, with field errors beside the fields', async (t) => {
  const context = await web.context(1280, t.title);
  const page = await context.newPage();
  await page.goto(web.url(null, '/'));
  await page.getByLabel('Your name').fill('Dana Demo');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send' }).click();
  t.is(await page.locator('#e-email').textContent(), 'email must be a valid email');
  t.is(await page.locator('#e-message').textContent(), 'message is required');
  t.is(await page.getByLabel('Your name').inputValue(), 'Dana Demo');
  await checkPage(t, page, 'home with errors');
  await page.getByLabel('Email').fill('dana@example.test');
  await page.getByLabel('Message').fill('Please show us the kit.');
  await page.getByRole('button', { name: 'Send' }).click();
  t.is(await page.getByRole('status').textContent(), 'Thank you: your message is with us, and we will write back.');
  const mail = await web.env.smtp.waitFor(`no-reply@${'wpk.test'}`);
  t.is(mail.subject, 'Demo request from Dana Demo');
  t.true(mail.text.includes('From: Dana Demo <dana@example.test>'));
  t.is(web.env.smtp.to('dana@example.test').length, 0);
});

test.serial('a signed-out navigation to a workspace screen goes to /login?next= and back after sign-in; the API keeps 401 JSON', async (t) => {
  const context = await web.context(375, t.title);
  const page = await context.newPage();
  await page.goto(web.url('acme', '/admin/members?sort=name'));
  t.is(page.url(), web.url('acme', `/login?next=${encodeURIComponent('/admin/members?sort=name')}`));
  await checkPage(t, page, 'workspace sign-in');
  await page.getByLabel('Email').fill('owner@acme.test');
  await page.getByLabel('Password').fill('owner-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  t.is(page.url(), web.url('acme', '/admin/members?sort=name'));
  t.is(await page.locator('h1').textContent(), 'Members');

  const api = await rawRequest(web, 'acme', '/members', { headers: { accept: 'application/json', 'x-api-version': '2026-11-01' } });
  t.is(api.status, 401);
  t.deepEqual(JSON.parse(api.text), { error: 'Authentication required' });
  const navigated = await rawRequest(web, 'acme', '/partials/members', { headers: { accept: 'text/html,application/xhtml+xml' } });
  t.is(navigated.status, 302);
  t.is(navigated.headers.location, '/login?next=%2Fpartials%2Fmembers');
});

test.serial('next may only point at this site: another host falls back to /', async (t) => {
  const context = await web.context(1280, t.title);
  const page = await context.newPage();
  await page.goto(web.url('acme', `/login?next=${encodeURIComponent('//evil.test/x')}`));
  await page.getByLabel('Email').fill('owner@acme.test');
  await page.getByLabel('Password').fill('owner-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  t.is(page.url(), web.url('acme', '/'));
});

test.serial('a form posted from another site is refused (CSRF): no session is made', async (t) => {
  const refused = await rawRequest(web, 'acme', '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.test' },
    body: 'email=owner%40acme.test&password=owner-password-1',
  });
  t.is(refused.status, 403);
  t.is(refused.headers['set-cookie'], undefined);
  t.regex(refused.text, /Cross-site request refused: Origin &quot;http:\/\/evil.test&quot;/);
});
