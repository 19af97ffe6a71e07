/**
 * File storage: `ctx.storage` for apps and the platform's own files (avatars). Object rows in
 * `platform.storage_objects`, bytes in a driver (local disk under the data directory, or any
 * S3-compatible service), signed links served at `/storage/{token}`.
 */
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { StorageConfig } from '../config.js';
import type { StorageDriver } from './drivers/driver.js';
import { LocalDiskDriver } from './drivers/local.js';
import { S3Driver } from './drivers/s3.js';
import { PLATFORM_NAMESPACE, StorageService } from './service.js';

export { decideContentType, normalizeMediaType, sniff } from './content-type.js';
export { assertBlobName, isBlobName, type StorageDriver } from './drivers/driver.js';
export { LocalDiskDriver } from './drivers/local.js';
export { S3Driver } from './drivers/s3.js';
export { checkKey, MAX_KEY_BYTES } from './keys.js';
export { storageRoutes } from './routes.js';
export { LINK_DEFAULT_SECONDS, LINK_MAX_SECONDS, StorageService, StorageUnit, type StorageScope, type StorageServiceOptions } from './service.js';
export { LinkSigner, type LinkClaims } from './signed-urls.js';

/** The driver the configuration names. */
export function createStorageDriver(config: StorageConfig): StorageDriver {
  return config.driver === 's3' ? new S3Driver(config.s3!) : new LocalDiskDriver(config.dir);
}

/** The storage service of a runtime, on the configured driver (or `driver`, tests). */
export function createStorage(options: { config: StorageConfig; sequelize: Sequelize; secret: string; publicUrl: string; logger: Logger; driver?: StorageDriver; clock?: () => Date }): StorageService {
  return new StorageService({
    driver: options.driver ?? createStorageDriver(options.config),
    sequelize: options.sequelize,
    maxObjectBytes: options.config.maxObjectBytes,
    secret: options.secret,
    publicUrl: options.publicUrl,
    logger: options.logger,
    clock: options.clock,
  });
}

/**
 * The platform's avatar images on this storage (namespace `platform`, keys `avatars/{member_id}`),
 * shaped as identity's `AvatarStorage`. An avatar stored before the storage service existed
 * (key `avatars/{workspace_id}/{member_id}`, a file under the local storage directory) is still read.
 */
export function avatarStore(storage: StorageService) {
  const scope = (workspaceId: string) => ({ workspaceId, subdomain: '', namespace: PLATFORM_NAMESPACE });
  const legacy = (workspaceId: string, key: string) => storage.driver.kind === 'local' && key.startsWith(`avatars/${workspaceId}/`);
  return {
    async put(workspaceId: string, key: string, data: Buffer, contentType: string): Promise<void> {
      await storage.put(scope(workspaceId), key, data, { contentType }, null);
    },
    async get(workspaceId: string, key: string): Promise<Buffer | null> {
      const body = legacy(workspaceId, key) ? await storage.driver.get(key) : (await storage.get(scope(workspaceId), key))?.body;
      if (!body) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks);
    },
    async delete(workspaceId: string, key: string): Promise<void> {
      if (legacy(workspaceId, key)) await storage.driver.delete(key);
      else await storage.delete(scope(workspaceId), key, null);
    },
  };
}
