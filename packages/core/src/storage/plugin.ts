import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { loadSecretKey } from '../identity/index.js';
import { avatarStore, createStorage } from './index.js';
import { storageRoutes } from './routes.js';
import type { StorageService } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    storage: {
      /** The storage service (`ctx.storage`, `runtime.storage`). */
      service: StorageService;
      /** The platform's avatars on it (identity's `AvatarStorage`). */
      avatars: ReturnType<typeof avatarStore>;
    };
  }
}

/**
 * File storage: the configured driver (local disk or S3), `ctx.storage`'s service, the avatar
 * store identity uses, and the signed links (`GET/PUT /storage/{token}`). Before the server
 * listens the driver is checked (a directory it cannot write, a bucket that does not answer stop
 * start-up naming the setting); it is closed after the server stops.
 */
export const storagePlugin = defineCorePlugin({
  name: 'storage',
  deps: { config: inputs.config, logger: inputs.logger, clock: inputs.clock, db: plugins.db },
  after: ['server'],
  async register(server, { config, logger, clock, db }) {
    const service = createStorage({
      config: config.storage,
      sequelize: db.database.sequelize,
      secret: await loadSecretKey(config.secretKey, config.dataDir),
      publicUrl: config.publicUrl,
      logger,
      clock,
    });
    server.route(storageRoutes(service));
    server.ext('onPreStart', () => service.driver.check());
    server.ext('onPostStop', () => service.driver.close());
    return { service, avatars: avatarStore(service) };
  },
});
