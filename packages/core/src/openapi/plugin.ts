import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { buildOpenApiDocument, type OpenApiBuildOptions, type OpenApiDocument } from './document.js';
import { openApiRoutes } from './routes.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    openapi: { document: (options?: OpenApiBuildOptions) => OpenApiDocument };
  }
}

/** `GET /openapi.json` and `document(options)`: the OpenAPI 3.1 document of every route on the server, built when first asked. */
export const openApiPlugin = defineCorePlugin({
  name: 'openapi',
  deps: { config: inputs.config, catalog: plugins['app-catalog'] },
  after: ['server'],
  register(server, { config, catalog }) {
    const registry = catalog.registry;
    const document = (options: OpenApiBuildOptions = {}): OpenApiDocument => {
      const apps = registry.list().map((app) => ({ namespace: app.namespace, name: app.manifest.name, version: app.manifest.version, description: app.manifest.description }));
      return buildOpenApiDocument({ routes: server.table(), apps, baseDomain: config.baseDomain }, options);
    };
    server.route(openApiRoutes(() => document()));
    return { document };
  },
});
