import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3StorageConfig } from '../../config.js';
import { assertBlobName, type StorageDriver } from './driver.js';

/**
 * Blobs as objects of one bucket of any S3-compatible service (AWS S3, MinIO, Ceph, R2, ...).
 * Streams of unknown length go up through the SDK's managed upload (one PUT when small,
 * multipart beyond 5 MiB). Request checksums are only sent when an operation requires them:
 * several S3-compatible servers do not understand the SDK's newer default (aws-chunked trailers).
 * The SDK loads when a driver is made, not with the platform (most runtimes store on disk).
 */
export class S3Driver implements StorageDriver {
  readonly kind = 's3' as const;
  private readonly sdk = import('@aws-sdk/client-s3');
  private readonly client: Promise<S3Client>;

  constructor(private readonly config: S3StorageConfig) {
    this.client = this.sdk.then(({ S3Client }) => new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: { accessKeyId: config.credentials.accessKeyId, secretAccessKey: config.credentials.secretAccessKey } } : {}),
    }));
  }

  private keyOf(name: string): string {
    assertBlobName(name);
    return this.config.prefix ? `${this.config.prefix}/${name}` : name;
  }

  async put(name: string, body: Readable, contentType: string): Promise<void> {
    const { Upload } = await import('@aws-sdk/lib-storage');
    const upload = new Upload({ client: await this.client, params: { Bucket: this.config.bucket, Key: this.keyOf(name), Body: body, ContentType: contentType }, leavePartsOnError: false });
    await upload.done();
  }

  async get(name: string): Promise<Readable | null> {
    const { GetObjectCommand, NoSuchKey, S3ServiceException } = await this.sdk;
    try {
      const answer = await (await this.client).send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(name) }));
      return (answer.Body as Readable | undefined) ?? null;
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    const { DeleteObjectCommand } = await this.sdk;
    await (await this.client).send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(name) }));
  }

  async check(): Promise<void> {
    const { HeadBucketCommand, S3ServiceException } = await this.sdk;
    try {
      await (await this.client).send(new HeadBucketCommand({ Bucket: this.config.bucket }));
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      const where = this.config.endpoint ?? `AWS S3 (${this.config.region})`;
      const why = status === 404 ? 'the bucket does not exist' : status === 403 ? 'access denied (check STORAGE_S3_ACCESS_KEY_ID and its secret)' : (error as Error).name || 'unreachable';
      throw new Error(`STORAGE_S3_BUCKET ${this.config.bucket} at ${where} cannot be used: ${why}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    (await this.client).destroy();
  }
}
