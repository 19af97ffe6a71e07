import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
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
export const aiPlugin = defineCorePlugin({
  name: 'ai',
  deps: { config: inputs.config, db: plugins.db, catalog: plugins['app-catalog'], search: plugins.search },
  after: ['server'],
  register(server, { config, db, catalog, search }) {
    const service = new AiCommandService({
      registry: catalog.registry,
      installations: catalog.installations,
      sequelize: db.database.sequelize,
      index: search.index,
      model: config.ai ? new OpenAiCompatibleModel(config.ai) : null,
    });
    server.route(aiEndpoints(service));
    return { service };
  },
});
