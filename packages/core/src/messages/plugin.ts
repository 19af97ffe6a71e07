import type { CorePlugin } from '../core-inputs.js';
import { messageRoutes } from './routes.js';
import { MessagesService } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    messages: { messages: MessagesService };
  }
}

/** The platform's own messages to a workspace's admins: billing notices and release notes (`GET /messages`). */
export const messagesPlugin: CorePlugin = {
  name: 'messages',
  dependencies: ['db', 'server'],
  register(server) {
    const messages = new MessagesService(server.plugins.db.database.sequelize);
    server.route(messageRoutes(messages));
    server.expose('messages', messages);
  },
};
