import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { LocalDiskDriver, S3Driver, storageConfig, type StorageDriver } from '../src/index.js';
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
