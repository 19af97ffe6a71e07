import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { inspect } from 'node:util';
import { checkKey, createLogger, LocalDiskDriver, resolveConfig, S3Driver, storageConfig, type StorageDriver } from '../src/index.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';

// The contract every storage driver keeps, run against both: local disk and an S3-compatible
// server (s3rver, on loopback, started here). Blob names are made by the storage service;
// anything else is refused before it reaches a disk path or a bucket key.

let dir: string;
let s3: TestS3;
const drivers: Record<'local' | 's3', StorageDriver> = {} as never;

test.before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wpk-storage-local-'));
  s3 = await startTestS3();
  drivers.local = new LocalDiskDriver(path.join(dir, 'root'));
  drivers.s3 = new S3Driver(storageConfig({ driver: 's3', s3: { endpoint: s3.endpoint, bucket: s3.bucket, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } }, {}, dir).s3!);
});

test.after.always(async () => {
  await drivers.s3?.close();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

const WS = '0b5e7a52-5d1c-4f3e-9a57-3f0c2a1d9e10';
const name = (suffix: string) => `${WS}/ext.acme.drive/${suffix}`;

async function read(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function contract(kind: 'local' | 's3') {
  const driver = () => drivers[kind];

  test(`${kind}: a blob written from a stream reads back byte for byte, and is replaced by the next write`, async (t) => {
    await driver().put(name('a1'), Readable.from([Buffer.from('hello '), Buffer.from('world')]), 'text/plain');
    t.deepEqual(await read(await driver().get(name('a1'))), Buffer.from('hello world'));
    await driver().put(name('a1'), Readable.from([Buffer.from('second')]), 'text/plain');
    t.deepEqual(await read(await driver().get(name('a1'))), Buffer.from('second'));
  });

  test(`${kind}: an empty blob and a 6 MiB blob (several parts on S3) keep their exact bytes`, async (t) => {
    await driver().put(name('empty'), Readable.from([]), 'application/octet-stream');
    t.deepEqual(await read(await driver().get(name('empty'))), Buffer.alloc(0));
    const big = randomBytes(6 * 1024 * 1024);
    const chunks = Array.from({ length: 96 }, (_, index) => big.subarray(index * 65536, (index + 1) * 65536));
    await driver().put(name('big'), Readable.from(chunks), 'application/octet-stream');
    const back = await read(await driver().get(name('big')));
    t.is(back!.length, big.length);
    t.true(back!.equals(big));
  });

  test(`${kind}: a missing blob reads as null; deleting one twice is fine`, async (t) => {
    t.is(await driver().get(name('never-written')), null);
    await driver().put(name('gone'), Readable.from([Buffer.from('x')]), 'text/plain');
    await driver().delete(name('gone'));
    await driver().delete(name('gone'));
    t.is(await driver().get(name('gone')), null);
  });

  test(`${kind}: a stream that fails half-way leaves no blob`, async (t) => {
    async function* failing() {
      yield Buffer.from('partial bytes');
      throw new Error('client went away');
    }
    await t.throwsAsync(driver().put(name('broken'), Readable.from(failing()), 'text/plain'));
    t.is(await driver().get(name('broken')), null);
  });

  test(`${kind}: hostile blob names are refused before any file or bucket key is touched`, async (t) => {
    const hostile = [
      '../escape',
      `${WS}/../../etc/passwd`,
      '/etc/passwd',
      `${WS}/ns/..`,
      `${WS}//double`,
      `${WS}/ns/a\\..\\b`,
      `${WS}/ns/nul\u0000byte`,
      `${WS}/NS/Upper`,
      `${WS}/ns/...`,
      'single-segment',
      `${WS}/ns/trailing/`,
      'C:/windows/system32',
      '',
    ];
    for (const bad of hostile) {
      await t.throwsAsync(driver().put(bad, Readable.from([Buffer.from('x')]), 'text/plain'), { message: /Refused storage blob name/ }, bad);
      await t.throwsAsync(driver().get(bad), { message: /Refused storage blob name/ }, bad);
      await t.throwsAsync(driver().delete(bad), { message: /Refused storage blob name/ }, bad);
    }
  });

  test(`${kind}: check() passes on a usable store`, async (t) => {
    await t.notThrowsAsync(driver().check());
  });
}

contract('local');
contract('s3');

test('local: blobs land under the root directory, and nothing else is written', async (t: ExecutionContext) => {
  const root = path.join(dir, 'layout');
  const local = new LocalDiskDriver(root);
  await local.put(name('layout-1'), Readable.from([Buffer.from('x')]), 'text/plain');
  t.deepEqual(await readdir(path.join(root, WS, 'ext.acme.drive')), ['layout-1']);
  t.is(local.fileOf(name('layout-1')), path.join(root, WS, 'ext.acme.drive', 'layout-1'));
});

test('local: check() names the directory that cannot be used', async (t) => {
  const file = path.join(dir, 'a-file');
  await writeFile(file, 'not a directory');
  await t.throwsAsync(new LocalDiskDriver(path.join(file, 'storage')).check(), { message: new RegExp(`^STORAGE_DIR ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/storage is not a readable and writable directory`) });
});

test('s3: check() names a missing bucket', async (t) => {
  const missing = new S3Driver(storageConfig({ driver: 's3', s3: { endpoint: s3.endpoint, bucket: 'no-such-bucket', credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } }, {}, dir).s3!);
  await t.throwsAsync(missing.check(), { message: `STORAGE_S3_BUCKET no-such-bucket at ${s3.endpoint} cannot be used: the bucket does not exist` });
  await missing.close();
});

test('configuration: local disk under the data directory and 50 MiB by default; every STORAGE_* value is checked at boot', (t) => {
  const defaults = resolveConfig({ dataDir: dir }, {}).storage;
  t.deepEqual(defaults, { driver: 'local', maxObjectBytes: 50 * 1024 * 1024, dir: path.join(dir, 'storage') });
  t.deepEqual(resolveConfig({ dataDir: dir }, { STORAGE_DIR: '/srv/files', STORAGE_MAX_OBJECT_BYTES: '1048576' }).storage, { driver: 'local', maxObjectBytes: 1048576, dir: '/srv/files' });
  const refusals: Array<[NodeJS.ProcessEnv, string]> = [
    [{ STORAGE_DRIVER: 'ftp' }, 'STORAGE_DRIVER must be local or s3, got "ftp"'],
    [{ STORAGE_MAX_OBJECT_BYTES: '10MB' }, 'STORAGE_MAX_OBJECT_BYTES must be an integer from 1 to 5368709120 (5 GiB), got "10MB"'],
    [{ STORAGE_MAX_OBJECT_BYTES: '0' }, 'STORAGE_MAX_OBJECT_BYTES must be an integer from 1 to 5368709120 (5 GiB), got "0"'],
    [{ STORAGE_DRIVER: 's3' }, 'STORAGE_S3_BUCKET is required when STORAGE_DRIVER is s3'],
    [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'Bad_Bucket' }, 'STORAGE_S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and hyphens), got "Bad_Bucket"'],
    [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files', STORAGE_S3_ENDPOINT: 'ftp://s3.example.com' }, 'STORAGE_S3_ENDPOINT must be an http(s) URL without credentials in it, e.g. https://s3.example.com'],
    [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files', STORAGE_S3_ENDPOINT: 'https://key:hunter2@s3.example.com' }, 'STORAGE_S3_ENDPOINT must be an http(s) URL without credentials in it, e.g. https://s3.example.com'],
    [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files', STORAGE_S3_REGION: 'Europe West' }, 'STORAGE_S3_REGION must be a region name such as us-east-1, got "Europe West"'],
    [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files', STORAGE_S3_PREFIX: '/abs/' }, 'STORAGE_S3_PREFIX must be path segments of letters, digits, dots, underscores and hyphens separated by /, without a leading or trailing /, got "/abs/"'],
    [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files', STORAGE_S3_FORCE_PATH_STYLE: 'maybe' }, 'STORAGE_S3_FORCE_PATH_STYLE must be true or false, got "maybe"'],
    [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files', STORAGE_S3_SECRET_ACCESS_KEY: 'hunter2' }, 'STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS SDK then finds credentials itself)'],
  ];
  for (const [env, message] of refusals) t.throws(() => resolveConfig({ dataDir: dir }, env), { message }, JSON.stringify(env));
});

test('configuration: the S3 secret never reaches JSON, util.inspect or a log line', (t) => {
  const env = { STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files', STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000', STORAGE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', STORAGE_S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-very-secret' };
  const config = resolveConfig({ dataDir: dir }, env);
  t.deepEqual(JSON.parse(JSON.stringify(config.storage)), { driver: 's3', maxObjectBytes: 52428800, dir: path.join(dir, 'storage'), s3: { bucket: 'files', region: 'us-east-1', prefix: '', forcePathStyle: true, endpoint: 'http://127.0.0.1:9000', credentials: { accessKeyId: 'AKIDEXAMPLE' } } });
  t.is(config.storage.s3!.credentials!.secretAccessKey, 'wJalrXUtnFEMI-very-secret');
  t.false(inspect(config, { depth: 10 }).includes('very-secret'));
  const lines: string[] = [];
  const logger = createLogger('info', new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
  logger.info({ config }, 'configuration');
  t.is(lines.length, 1);
  t.false(lines[0].includes('very-secret'));
});

test('keys: the rule an app key follows', (t) => {
  for (const good of ['a', 'resumes/42.pdf', 'Ünïcode/файл name (1).txt', 'a.b/c..d/...e', 'x'.repeat(1024)]) t.is(checkKey(good), good);
  const refused: Array<[unknown, string]> = [
    [undefined, 'key: must be a non-empty string'],
    [42, 'key: must be a non-empty string'],
    ['nul\u0000byte', 'key: must not contain control characters or a backslash'],
    ['line\nbreak', 'key: must not contain control characters or a backslash'],
    ['x'.repeat(1025), 'key: must be at most 1024 bytes long'],
    ['a/..', 'key: must not have . or .. segments'],
  ];
  for (const [key, message] of refused) t.throws(() => checkKey(key), { message }, JSON.stringify(key));
});
