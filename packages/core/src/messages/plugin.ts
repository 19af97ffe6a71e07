import { defineCorePlugin, plugins } from '../core-plugin.js';
import { messageRoutes } from './routes.js';
import { MessagesService } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    messages: { messages: MessagesService };
  }
}

/** The platform's own messages to a workspace's admins: billing notices and release notes (`GET /messages`). */
export const messagesPlugin = defineCorePlugin({
  name: 'messages',
  deps: { db: plugins.db },
  after: ['server'],
  register(server, { db }) {
    const messages = new MessagesService(db.database.sequelize);
    server.route(messageRoutes(messages));
    return { messages };
  },
});
