import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { resolveBillingConfig } from './config.js';
import { paymentProvider } from './providers.js';
import { billingRoutes } from './routes.js';
import { BillingService } from './service.js';
import { BillingWorker } from './worker.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    billing: { billing: BillingService; worker: BillingWorker };
  }
}

/**
 * Billing (docs/billing.md): the plan catalog, `PUT /plan`, `PUT /plan/interval`, invoices,
 * payment methods through the payment provider, and the billing loop's worker on the durable
 * queue (started when the server starts, stopped before it stops).
 */
export const billingPlugin = defineCorePlugin({
  name: 'billing',
  deps: { config: inputs.config, logger: inputs.logger, clock: inputs.clock, db: plugins.db, events: plugins.events, messages: plugins.messages },
  after: ['server'],
  register(server, { config, logger, clock, db, events, messages }) {
    const database = db.database;
    const billingConfig = resolveBillingConfig(config.billing);
    const billing = new BillingService(database.sequelize, billingConfig, clock, events.bus, messages.messages, paymentProvider(billingConfig, clock));
    const worker = new BillingWorker({
      databaseUrl: database.url,
      sequelize: database.sequelize,
      logger,
      clock,
      pollMs: billingConfig.pollMs,
      claimSeconds: billingConfig.claimSeconds,
      fire: (workspaceId, due) => billing.fire(workspaceId, due),
      collect: (onError) => billing.collectDue(onError),
    });
    billing.useScheduler(worker);
    server.route(billingRoutes(billing));
    server.ext('onPostStart', () => worker.start());
    server.ext('onPreStop', () => worker.stop());
    return { billing, worker };
  },
});
