import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { EventBus } from './bus.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    events: { bus: EventBus };
  }
}

/**
 * The event bus: registry, transactional outbox (`bus.sink`), ingress for remote emitters,
 * subscription mounting, the in-process broker (started by `runtime.start()`). Who receives and
 * who may emit in a workspace is the `app-catalog` plugin's rule (installed apps only).
 */
export const eventsPlugin = defineCorePlugin({
  name: 'events',
  deps: { config: inputs.config, logger: inputs.logger, options: inputs.events, clock: inputs.clock, db: plugins.db, tenancy: plugins.tenancy, catalog: plugins['app-catalog'] },
  after: ['server'],
  register(server, { config, logger, options, clock, db, tenancy, catalog }) {
    const bus = new EventBus({
      config,
      db: db.database,
      server,
      workspaces: tenancy.workspaces,
      logger,
      options,
      subscriberFilter: catalog.installedSubscribers,
      emissionGuard: catalog.installedEmitters,
      clock,
    });
    return { bus };
  },
});
