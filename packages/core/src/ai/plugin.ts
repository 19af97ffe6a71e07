import type { CorePlugin } from '../core-inputs.js';
import { OpenAiCompatibleModel } from './chat-model.js';
import { aiEndpoints } from './routes.js';
import { AiCommandService } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    ai: { service: AiCommandService };
  }
}

/**
 * `POST /ai/commands`: questions about an app, answered from the platform search index (only the
 * types the caller may read) by the configured OpenAI-compatible model, or, with none, by a
 * listing of the matching records.
 */
export const aiPlugin: CorePlugin = {
  name: 'ai',
  dependencies: ['db', 'server', 'app-catalog', 'search'],
  register(server, { config }) {
    const { registry, installations } = server.plugins['app-catalog'];
    const service = new AiCommandService({
      registry,
      installations,
      sequelize: server.plugins.db.database.sequelize,
      index: server.plugins.search.index,
      model: config.ai ? new OpenAiCompatibleModel(config.ai) : null,
    });
    server.route(aiEndpoints(service));
    server.expose('service', service);
  },
};
