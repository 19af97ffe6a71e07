import type { CorePlugin } from '../core-inputs.js';
import { installWeb } from './install.js';

/** The server-rendered site and the workspace's admin screens, over the JSON API in process (see `installWeb`). */
export const webPlugin: CorePlugin = {
  name: 'web',
  dependencies: ['tenancy', 'server', 'app-catalog', 'mail', 'identity'],
  async register(server, { config }) {
    await installWeb(server, {
      config,
      workspaces: server.plugins.tenancy.workspaces,
      apps: server.plugins['app-catalog'].registry,
      installations: server.plugins['app-catalog'].installations,
      mailer: server.plugins.mail.mailer,
      throttle: server.plugins.identity.identity.context.throttle,
    });
  },
};
