import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import test from 'ava';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import type { RuntimeOptions } from '../../src/index.js';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './apps.js';
import { startTestS3, type TestS3 } from './s3.js';
import { driveApp, otherApp } from './storage-apps.js';

// ctx.storage end to end, the same tests on each driver: scoping to the app and the workspace,
// content-type sniffing, size limits, a failed request's files, and the signed links.

export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c20000000049454e44ae426082', 'hex');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** The configured STORAGE_MAX_OBJECT_BYTES of these runtimes. */
export const MAX_OBJECT_BYTES = 64 * 1024;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Registers the suite for one driver (`s3` runs an S3-compatible server on loopback, and strict mode). */
export function storageSuite(kind: 'local' | 's3'): void {
  let env: AppsTestRuntime;
  let dataDir: string;
  let s3: TestS3 | null = null;
  let s3Client: S3Client | null = null;
  let acme: TestWorkspace;
  let globex: TestWorkspace;

  test.before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), `wpk-storage-${kind}-`));
    const storage: RuntimeOptions['storage'] = { maxObjectBytes: MAX_OBJECT_BYTES };
    if (kind === 's3') {
      s3 = await startTestS3();
      Object.assign(storage, { driver: 's3', s3: { endpoint: s3.endpoint, bucket: s3.bucket, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } });
      s3Client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    }
    env = await startAppsRuntime({ apps: [{ app: driveApp }, { app: otherApp }], dataDir, storage, strictAppRoles: kind === 's3' } as RuntimeOptions);
    await env.runtime.storage.driver.check();
    acme = await TestWorkspace.create(env, `acme${kind}`);
    globex = await TestWorkspace.create(env, `globex${kind}`);
    for (const ws of [acme, globex]) {
      await ws.install('ext.acme.drive', { access_policy: 'everyone' });
      await ws.install('ext.acme.other', { access_policy: 'everyone' });
    }
  });

  test.after.always(async () => {
    if (env?.runtime.apps.strict) await env.runtime.apps.dropStrictRoles();
    await env?.close();
    s3Client?.destroy();
    await s3?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const json = { 'content-type': 'application/json' };
  const call = async (ws: TestWorkspace, method: string, url: string, payload?: unknown) => {
    const response = await env.runtime.server.inject({ method, url, headers: payload === undefined ? ws.owner.headers() : ws.owner.headers(json), payload: payload as object | undefined });
    return { status: response.statusCode, body: response.payload ? body(response) : null };
  };
  const put = (ws: TestWorkspace, app: 'drive' | 'other', payload: Record<string, unknown>) => call(ws, 'POST', `/ext/acme/${app}/files`, payload);
  const get = (ws: TestWorkspace, app: 'drive' | 'other', key: string) => call(ws, 'GET', `/ext/acme/${app}/files?key=${encodeURIComponent(key)}`);
  const link = async (ws: TestWorkspace, payload: Record<string, unknown>) => call(ws, 'POST', '/ext/acme/drive/links', payload);
  /** Follows a signed link with a real Host header (the link's own, or `host`). */
  const follow = async (url: string, options: { method?: string; payload?: Buffer | string; headers?: Record<string, string>; host?: string } = {}) => {
    const target = new URL(url);
    const response = await env.runtime.server.inject({ method: options.method ?? 'GET', url: target.pathname, headers: { host: options.host ?? target.host, ...options.headers }, ...(options.payload === undefined ? {} : { payload: options.payload }) });
    return { status: response.statusCode, headers: response.headers, raw: response.rawPayload, body: String(response.headers['content-type']).startsWith('application/json') ? body(response) : null };
  };
  const rows = async (ws: TestWorkspace) =>
    env.runtime.db.sequelize.query<{ namespace: string; key: string }>('SELECT namespace, key FROM platform.storage_objects WHERE workspace_id = :ws ORDER BY namespace, key', { type: QueryTypes.SELECT, replacements: { ws: ws.id } });
  /** Every blob in the store, by name. */
  const blobs = async (): Promise<string[]> => {
    if (s3Client && s3) {
      const listed = await s3Client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    }
    const root = path.join(dataDir, 'storage');
    const files = await readdir(root, { recursive: true, withFileTypes: true });
    return files.filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))).sort();
  };
  const blobOf = async (ws: TestWorkspace, namespace: string, key: string) =>
    (await env.runtime.db.sequelize.query<{ blob: string }>('SELECT blob FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = :ns AND key = :key', { type: QueryTypes.SELECT, replacements: { ws: ws.id, ns: namespace, key } }))[0]?.blob;

  test.serial(`${kind}: put then get returns the same bytes, type, size and hash; a stream is stored like a buffer`, async (t) => {
    t.is(env.runtime.apps.strict, kind === 's3');
    t.is(env.runtime.storage.driver.kind, kind);
    const stored = await put(acme, 'drive', { key: 'notes/hello.txt', text: 'hello, storage', content_type: 'text/plain; charset=utf-8' });
    t.is(stored.status, 200);
    t.like(stored.body.data, { key: 'notes/hello.txt', size_bytes: 14, content_type: 'text/plain', sha256: sha256(Buffer.from('hello, storage')) });
    const read = await get(acme, 'drive', 'notes/hello.txt');
    t.is(read.status, 200);
    t.is(Buffer.from(read.body.data.base64, 'base64').toString(), 'hello, storage');
    t.like(read.body.data, { key: 'notes/hello.txt', size_bytes: 14, content_type: 'text/plain' });
    const big = Buffer.alloc(40 * 1024, 7);
    const streamed = await put(acme, 'drive', { key: 'big.bin', base64: big.toString('base64'), stream: true });
    t.like(streamed.body.data, { size_bytes: big.length, content_type: 'application/octet-stream', sha256: sha256(big) });
    t.true(Buffer.from((await get(acme, 'drive', 'big.bin')).body.data.base64, 'base64').equals(big));
  });

  test.serial(`${kind}: objects are scoped to the app and the workspace`, async (t) => {
    t.is((await put(acme, 'drive', { key: 'shared/doc.txt', text: 'acme drive' })).status, 200);
    t.deepEqual(await get(acme, 'other', 'shared/doc.txt'), { status: 404, body: { error: 'No file shared/doc.txt' } });
    t.deepEqual(await get(globex, 'drive', 'shared/doc.txt'), { status: 404, body: { error: 'No file shared/doc.txt' } });
    // The same key in another app and another workspace is another object.
    await put(acme, 'other', { key: 'shared/doc.txt', text: 'acme other' });
    await put(globex, 'drive', { key: 'shared/doc.txt', text: 'globex drive' });
    const text = async (ws: TestWorkspace, app: 'drive' | 'other') => Buffer.from((await get(ws, app, 'shared/doc.txt')).body.data.base64, 'base64').toString();
    t.deepEqual([await text(acme, 'drive'), await text(acme, 'other'), await text(globex, 'drive')], ['acme drive', 'acme other', 'globex drive']);
    t.deepEqual(
      (await rows(globex)).map((row) => `${row.namespace}:${row.key}`),
      ['ext.acme.drive:shared/doc.txt'],
    );
    // Deleting in one scope leaves the others.
    t.deepEqual(await call(acme, 'DELETE', `/ext/acme/other/files?key=shared/doc.txt`), { status: 200, body: { data: { deleted: true } } });
    t.is(await text(acme, 'drive'), 'acme drive');
    t.is(await text(globex, 'drive'), 'globex drive');
    // Blob names start with the workspace id and the namespace.
    const blob = await blobOf(acme, 'ext.acme.drive', 'shared/doc.txt');
    t.regex(blob!, new RegExp(`^${acme.id}/ext\\.acme\\.drive/[0-9a-f-]{36}$`));
  });

  test.serial(`${kind}: the declared content type must agree with the bytes`, async (t) => {
    t.like((await put(acme, 'drive', { key: 'pictures/dot', base64: PNG.toString('base64') })).body.data, { content_type: 'image/png' });
    t.deepEqual(await put(acme, 'drive', { key: 'pictures/fake.png', base64: PDF.toString('base64'), content_type: 'image/png' }), { status: 415, body: { error: 'The content is application/pdf, not image/png as declared' } });
    t.deepEqual(await put(acme, 'drive', { key: 'pictures/text.png', text: 'just text', content_type: 'image/png' }), { status: 415, body: { error: 'The content is not image/png as declared (its bytes are not of a format that type names)' } });
    t.deepEqual(await put(acme, 'drive', { key: 'notes/binary.txt', base64: PNG.toString('base64'), content_type: 'text/plain' }), { status: 415, body: { error: 'The content is image/png, not text/plain as declared' } });
    t.like((await put(acme, 'drive', { key: 'docs/a.pdf', base64: PDF.toString('base64'), content_type: 'application/pdf' })).body.data, { content_type: 'application/pdf' });
    t.like((await put(acme, 'drive', { key: 'data/custom.bin', text: 'opaque', content_type: 'application/vnd.acme.custom' })).body.data, { content_type: 'application/vnd.acme.custom' });
    t.like((await put(acme, 'drive', { key: 'data/unknown', base64: PDF.toString('base64'), content_type: 'application/octet-stream' })).body.data, { content_type: 'application/pdf' });
    t.deepEqual(await put(acme, 'drive', { key: 'data/bad-type', text: 'x', content_type: 'not a type' }), { status: 400, body: { error: 'contentType: "not a type" is not a media type (type/subtype)' } });
    t.deepEqual(await get(acme, 'drive', 'pictures/fake.png'), { status: 404, body: { error: 'No file pictures/fake.png' } });
  });

  test.serial(`${kind}: size limits: the put's own and the configured one`, async (t) => {
    t.deepEqual(await put(acme, 'drive', { key: 'small', text: '12345678901', max_bytes: 10 }), { status: 413, body: { error: 'The file is larger than 10 bytes, the most this upload accepts' } });
    t.is((await put(acme, 'drive', { key: 'small', text: '1234567890', max_bytes: 10 })).status, 200);
    const over = Buffer.alloc(MAX_OBJECT_BYTES + 1, 1);
    t.deepEqual(await put(acme, 'drive', { key: 'huge', base64: over.toString('base64'), stream: true }), { status: 413, body: { error: `The file is larger than ${MAX_OBJECT_BYTES} bytes, the most this upload accepts` } });
    t.deepEqual(await put(acme, 'drive', { key: 'huge', base64: over.toString('base64'), max_bytes: 10 * MAX_OBJECT_BYTES }), { status: 413, body: { error: `The file is larger than ${MAX_OBJECT_BYTES} bytes, the most this upload accepts` } });
    t.is((await put(acme, 'drive', { key: 'exact', base64: over.subarray(1).toString('base64'), stream: true })).status, 200);
    t.false((await rows(acme)).some((row) => row.key === 'huge'));
  });

  test.serial(`${kind}: hostile keys are refused with a 400 and write nothing`, async (t) => {
    const before = await blobs();
    const cases: Array<[string, string]> = [
      ['../escape', 'key: must not have . or .. segments'],
      ['a/../../etc/passwd', 'key: must not have . or .. segments'],
      ['./here', 'key: must not have . or .. segments'],
      ['/etc/passwd', 'key: must be relative (no leading /)'],
      ['a//b', 'key: must not have empty segments (// or a trailing /)'],
      ['trailing/', 'key: must not have empty segments (// or a trailing /)'],
      ['a\\..\\b', 'key: must not contain control characters or a backslash'],
      ['tab\there', 'key: must not contain control characters or a backslash'],
      ['', 'key: must be a non-empty string'],
      ['é'.repeat(513), 'key: must be at most 1024 bytes long'],
    ];
    for (const [key, error] of cases) {
      t.deepEqual(await put(acme, 'drive', { key, text: 'x' }), { status: 400, body: { error } }, JSON.stringify(key));
      t.deepEqual(await get(acme, 'drive', key), { status: 400, body: { error } }, JSON.stringify(key));
    }
    t.deepEqual(await blobs(), before);
    t.false((await rows(acme)).some((row) => row.key.includes('..') || row.key.startsWith('/')));
  });

  test.serial(`${kind}: a failed request keeps the previous object and removes what it wrote; a delete takes effect on commit`, async (t) => {
    await put(acme, 'drive', { key: 'keep.txt', text: 'original' });
    const before = await blobs();
    t.deepEqual(await call(acme, 'POST', '/ext/acme/drive/files/failing', { key: 'keep.txt', text: 'replacement' }), { status: 400, body: { error: 'refused after writing' } });
    t.deepEqual(await call(acme, 'POST', '/ext/acme/drive/files/failing', { key: 'never.txt', text: 'new' }), { status: 400, body: { error: 'refused after writing' } });
    t.is(Buffer.from((await get(acme, 'drive', 'keep.txt')).body.data.base64, 'base64').toString(), 'original');
    t.deepEqual(await get(acme, 'drive', 'never.txt'), { status: 404, body: { error: 'No file never.txt' } });
    t.deepEqual(await blobs(), before);
    t.deepEqual(await call(acme, 'DELETE', '/ext/acme/drive/files?key=keep.txt&fail=true'), { status: 400, body: { error: 'refused after deleting' } });
    t.is(Buffer.from((await get(acme, 'drive', 'keep.txt')).body.data.base64, 'base64').toString(), 'original');
    const blob = await blobOf(acme, 'ext.acme.drive', 'keep.txt');
    t.deepEqual(await call(acme, 'DELETE', '/ext/acme/drive/files?key=keep.txt'), { status: 200, body: { data: { deleted: true } } });
    t.deepEqual(await call(acme, 'DELETE', '/ext/acme/drive/files?key=keep.txt'), { status: 200, body: { data: { deleted: false } } });
    t.false((await blobs()).some((name) => name.endsWith(blob!)));
    // Replacing an object removes the previous blob once the request committed.
    await put(acme, 'drive', { key: 'replaced.txt', text: 'one' });
    const first = await blobOf(acme, 'ext.acme.drive', 'replaced.txt');
    await put(acme, 'drive', { key: 'replaced.txt', text: 'two' });
    const names = await blobs();
    const second = await blobOf(acme, 'ext.acme.drive', 'replaced.txt');
    t.false(names.some((name) => name.endsWith(first!)));
    t.true(names.some((name) => name.endsWith(second!)));
  });

  test.serial(`${kind}: a signed download link serves the bytes on its workspace only, until it expires`, async (t) => {
    await put(acme, 'drive', { key: 'pictures/dot.png', base64: PNG.toString('base64') });
    const signed = await link(acme, { key: 'pictures/dot.png', op: 'get', expires_in: 60, filename: 'Dot – 1.png' });
    t.is(signed.status, 200);
    t.is(signed.body.data.method, 'GET');
    t.regex(signed.body.data.url, new RegExp(`^http://${acme.subdomain}\\.localhost/storage/v1\\.[\\w-]+\\.[\\w-]+$`));
    const expiresIn = Date.parse(signed.body.data.expires_at) - Date.now();
    t.true(expiresIn > 55_000 && expiresIn <= 60_000, String(expiresIn));
    const got = await follow(signed.body.data.url);
    t.is(got.status, 200);
    t.true(got.raw.equals(PNG));
    t.is(got.headers['content-type'], 'image/png');
    t.is(String(got.headers['content-length']), String(PNG.length));
    t.is(got.headers['content-disposition'], `inline; filename="Dot _ 1.png"; filename*=UTF-8''Dot%20%E2%80%93%201.png`);
    t.is(got.headers['x-content-type-options'], 'nosniff');
    t.is(got.headers['content-security-policy'], "default-src 'none'; sandbox");
    t.is(got.headers.etag, `"${sha256(PNG)}"`);
    t.is((await follow(signed.body.data.url, { headers: { 'if-none-match': `"${sha256(PNG)}"` } })).status, 304);
    // A type a browser could run is always a download.
    await put(acme, 'drive', { key: 'page.html', text: '<script>alert(1)</script>', content_type: 'text/html' });
    const html = await follow((await link(acme, { key: 'page.html', op: 'get' })).body.data.url);
    t.is(html.headers['content-disposition'], `attachment; filename="page.html"; filename*=UTF-8''page.html`);
    // Another workspace's host, a tampered token, an expired one, an upload link used to download.
    t.deepEqual((await follow(signed.body.data.url, { host: `${globex.subdomain}.localhost` })).body, { error: 'This storage link is not valid' });
    const [prefix, claims, signature] = new URL(signed.body.data.url).pathname.slice('/storage/'.length).split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString()), ns: 'ext.acme.other' })).toString('base64url');
    for (const token of [`${prefix}.${forged}.${signature}`, `${prefix}.${claims}.${signature.slice(0, -2)}AA`, 'v1.garbage', `v2.${claims}.${signature}`]) {
      const refused = await follow(`http://${acme.subdomain}.localhost/storage/${token}`);
      t.deepEqual([refused.status, refused.body], [403, { error: 'This storage link is not valid' }], token);
    }
    const expired = env.runtime.storage.signer.sign({ op: 'get', ws: acme.id, ns: 'ext.acme.drive', key: 'pictures/dot.png', exp: Math.floor(Date.now() / 1000) - 1 });
    const late = await follow(`http://${acme.subdomain}.localhost/storage/${expired}`);
    t.deepEqual([late.status, late.body], [403, { error: 'This storage link has expired' }]);
    const upload = await link(acme, { key: 'pictures/dot.png', op: 'put' });
    t.deepEqual((await follow(upload.body.data.url)).body, { error: 'This storage link is not valid' });
    // No link for a missing object; the object gone, the link answers 404.
    t.deepEqual(await link(acme, { key: 'missing.png', op: 'get' }), { status: 404, body: { error: 'No file at missing.png' } });
    t.deepEqual(await link(acme, { key: 'pictures/dot.png', op: 'get', expires_in: 604801 }), { status: 400, body: { error: 'expiresInSeconds: must be an integer from 1 to 604800 (seven days)' } });
    await call(acme, 'DELETE', '/ext/acme/drive/files?key=pictures/dot.png');
    t.deepEqual((await follow(signed.body.data.url)).body, { error: 'The file of this link no longer exists' });
  });

  test.serial(`${kind}: a signed upload link enforces the size and content type it was signed for`, async (t) => {
    const signed = await link(acme, { key: 'uploads/avatar.png', op: 'put', content_type: 'image/png', max_bytes: 100 });
    t.is(signed.body.data.method, 'PUT');
    const url = signed.body.data.url;
    const refusedType = await follow(url, { method: 'PUT', payload: PNG, headers: { 'content-type': 'text/plain' } });
    t.deepEqual([refusedType.status, refusedType.body], [415, { error: 'This link accepts only image/png (send Content-Type: image/png)' }]);
    const lying = await follow(url, { method: 'PUT', payload: PDF, headers: { 'content-type': 'image/png' } });
    t.deepEqual([lying.status, lying.body], [415, { error: 'The content is application/pdf, not image/png as declared' }]);
    const tooBig = await follow(url, { method: 'PUT', payload: Buffer.concat([PNG, Buffer.alloc(101 - PNG.length)]), headers: { 'content-type': 'image/png' } });
    t.deepEqual([tooBig.status, tooBig.body], [413, { error: 'The file is larger than 100 bytes, the most this link accepts' }]);
    const elsewhere = await follow(url, { method: 'PUT', payload: PNG, headers: { 'content-type': 'image/png' }, host: `${globex.subdomain}.localhost` });
    t.deepEqual([elsewhere.status, elsewhere.body], [403, { error: 'This storage link is not valid' }]);
    t.deepEqual(await get(acme, 'drive', 'uploads/avatar.png'), { status: 404, body: { error: 'No file uploads/avatar.png' } });
    const uploaded = await follow(url, { method: 'PUT', payload: PNG, headers: { 'content-type': 'image/png' } });
    t.is(uploaded.status, 200);
    t.like(uploaded.body.data, { key: 'uploads/avatar.png', size_bytes: PNG.length, content_type: 'image/png', sha256: sha256(PNG) });
    t.true(Buffer.from((await get(acme, 'drive', 'uploads/avatar.png')).body.data.base64, 'base64').equals(PNG));
    t.deepEqual(await get(acme, 'other', 'uploads/avatar.png'), { status: 404, body: { error: 'No file uploads/avatar.png' } });
    // A link without a type takes any body and sniffs it; the platform's limit still holds.
    const open = (await link(acme, { key: 'uploads/any', op: 'put' })).body.data.url;
    t.like((await follow(open, { method: 'PUT', payload: PDF, headers: { 'content-type': 'application/octet-stream' } })).body.data, { content_type: 'application/pdf' });
    const over = await follow(open, { method: 'PUT', payload: Buffer.alloc(MAX_OBJECT_BYTES + 1), headers: { 'content-type': 'application/octet-stream' } });
    t.is(over.status, 413);
  });

  avatarSuite(kind, () => ({ env, workspace: globex, blobs, dataDir }));
}

/** Registers the avatar tests for one driver: the platform's own files go through the same storage. */
export function avatarSuite(kind: 'local' | 's3', context: () => { env: AppsTestRuntime; workspace: TestWorkspace; blobs: () => Promise<string[]>; dataDir: string }): void {
  if (kind === 'local') {
    test.serial('local: an avatar stored before the storage service (avatars/{workspace}/{member} on disk) is still served and removed', async (t) => {
      const { env, workspace, dataDir } = context();
      const id = workspace.owner.memberId;
      const file = path.join(dataDir, 'storage', 'avatars', workspace.id, id);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, PNG);
      await env.runtime.db.sequelize.query("UPDATE platform.members SET avatar_key = :key, avatar_content_type = 'image/png', avatar_updated_at = now() WHERE workspace_id = :ws AND id = :id", { replacements: { key: `avatars/${workspace.id}/${id}`, id, ws: workspace.id } });
      const served = await env.runtime.server.inject({ method: 'GET', url: `/avatars/${id}`, headers: workspace.owner.headers() });
      t.is(served.statusCode, 200);
      t.true(served.rawPayload.equals(PNG));
      t.is((await env.runtime.server.inject({ method: 'DELETE', url: `/avatars/${id}`, headers: workspace.owner.headers() })).statusCode, 200);
      t.false(existsSync(file));
    });
  }

  test.serial(`${kind}: avatars are kept in the platform's storage namespace of the workspace`, async (t) => {
    const { env, workspace, blobs } = context();
    const id = workspace.owner.memberId;
    const uploaded = await env.runtime.server.inject({ method: 'POST', url: `/avatars/${id}`, headers: workspace.owner.headers({ 'content-type': 'image/png' }), payload: PNG });
    t.is(uploaded.statusCode, 200);
    const [row] = await env.runtime.db.sequelize.query<{ blob: string; content_type: string; size_bytes: string }>(
      "SELECT blob, content_type, size_bytes FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = 'platform' AND key = :key",
      { type: QueryTypes.SELECT, replacements: { ws: workspace.id, key: `avatars/${id}` } },
    );
    t.like(row, { content_type: 'image/png', size_bytes: String(PNG.length) });
    t.true((await blobs()).some((name) => name.endsWith(row.blob)));
    const served = await env.runtime.server.inject({ method: 'GET', url: `/avatars/${id}`, headers: workspace.owner.headers() });
    t.is(served.statusCode, 200);
    t.true(served.rawPayload.equals(PNG));
    const cleared = await env.runtime.server.inject({ method: 'DELETE', url: `/avatars/${id}`, headers: workspace.owner.headers() });
    t.is(cleared.statusCode, 200);
    const left = await env.runtime.db.sequelize.query("SELECT 1 FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = 'platform'", { type: QueryTypes.SELECT, replacements: { ws: workspace.id } });
    t.deepEqual(left, []);
    t.false((await blobs()).some((name) => name.endsWith(row.blob)));
  });
}
