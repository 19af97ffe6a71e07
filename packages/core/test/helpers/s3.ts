import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
// s3rver: an S3-compatible server in this process, on loopback (no network, nothing global).
import S3rver from 's3rver';

/** A running S3-compatible server with one bucket, and how to stop it. */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 (port chosen by the system) with `bucket`, storing under a temporary directory. */
export async function startTestS3(bucket = 'wpk-test'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'wpk-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    // s3rver's built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
