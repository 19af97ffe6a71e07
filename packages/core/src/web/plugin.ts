import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { installWeb } from './install.js';

/** The server-rendered site and the workspace's admin screens, over the JSON API in process (see `installWeb`). */
export const webPlugin = defineCorePlugin({
  name: 'web',
  deps: { config: inputs.config, tenancy: plugins.tenancy, catalog: plugins['app-catalog'], mail: plugins.mail, identity: plugins.identity },
  after: ['server'],
  async register(server, { config, tenancy, catalog, mail, identity }) {
    await installWeb(server, {
      config,
      workspaces: tenancy.workspaces,
      apps: catalog.registry,
      installations: catalog.installations,
      mailer: mail.mailer,
      throttle: identity.identity.context.throttle,
    });
  },
});
