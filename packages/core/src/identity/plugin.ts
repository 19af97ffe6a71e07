import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
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
export const identityPlugin = defineCorePlugin({
  name: 'identity',
  deps: {
    config: inputs.config,
    logger: inputs.logger,
    seams: inputs.seams,
    db: plugins.db,
    tenancy: plugins.tenancy,
    mail: plugins.mail,
    storage: plugins.storage,
    events: plugins.events,
    apiKeys: plugins['api-keys'],
    appTokens: plugins['app-tokens'],
  },
  after: ['server'],
  async register(server, { config, logger, seams, db, tenancy, mail, storage, events, apiKeys, appTokens }) {
    const sink = events.bus.sink;
    const identity = await IdentityService.create({
      sequelize: db.database.sequelize,
      config,
      logger,
      workspaces: tenancy.workspaces,
      mailer: mail.mailer,
      events: seams.eventSink ? seams.eventSink(sink, 'identity') : sink,
      apiKeys: apiKeys.authenticator,
      clock: seams.clock,
      avatars: storage.avatars,
    });
    installIdentity(server, identity, config, appTokens.authenticator);
    return { identity };
  },
});
