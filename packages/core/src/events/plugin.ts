import type { CorePlugin } from '../core-inputs.js';
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
export const eventsPlugin: CorePlugin = {
  name: 'events',
  dependencies: ['db', 'tenancy', 'server', 'app-catalog'],
  register(server, { config, logger, events, seams }) {
    const catalog = server.plugins['app-catalog'];
    const bus = new EventBus({
      config,
      db: server.plugins.db.database,
      server,
      workspaces: server.plugins.tenancy.workspaces,
      logger,
      options: events,
      subscriberFilter: catalog.installedSubscribers,
      emissionGuard: catalog.installedEmitters,
      clock: seams.clock,
    });
    server.expose('bus', bus);
  },
};
