import type { CorePlugin } from '../core-inputs.js';
import { installIdentity } from './http/install.js';
import { IdentityService } from './identity-service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    identity: { identity: IdentityService };
  }
}

/**
 * Identity: accounts, members, roles, sessions, sign-up, invitations, resets, TOTP, elevation;
 * the session cookie and the `wpk` auth scheme (layers 1 and 2, API keys judged by the
 * `api-keys` plugin's authenticator, app tokens by the `app-tokens` plugin's) as every route's
 * default; CSRF; identity's routes.
 */
export const identityPlugin: CorePlugin = {
  name: 'identity',
  dependencies: ['db', 'tenancy', 'server', 'mail', 'storage', 'events', 'api-keys', 'app-tokens'],
  async register(server, { config, logger, seams }) {
    const sink = server.plugins.events.bus.sink;
    const identity = await IdentityService.create({
      sequelize: server.plugins.db.database.sequelize,
      config,
      logger,
      workspaces: server.plugins.tenancy.workspaces,
      mailer: server.plugins.mail.mailer,
      events: seams.eventSink ? seams.eventSink(sink, 'identity') : sink,
      apiKeys: server.plugins['api-keys'].authenticator,
      clock: seams.clock,
      avatars: server.plugins.storage.avatars,
    });
    installIdentity(server, identity, config, server.plugins['app-tokens'].authenticator);
    server.expose('identity', identity);
  },
};
