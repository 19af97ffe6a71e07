import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { operatorRoutes, workspaceOperatorRoutes } from './routes.js';
import { OperatorService } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    operators: { operators: OperatorService };
  }
}

/** Operator admin (`/v/admin/…`): release notes, coupons and redemptions, preview apps and adopters, behind an operator credential. */
export const operatorsPlugin = defineCorePlugin({
  name: 'operators',
  deps: { config: inputs.config, logger: inputs.logger, clock: inputs.clock, db: plugins.db, mail: plugins.mail, billing: plugins.billing, messages: plugins.messages },
  after: ['server'],
  register(server, { config, logger, clock, db, mail, billing, messages }) {
    const operators = new OperatorService(db.database.sequelize, clock);
    server.route(operatorRoutes({ operators, billing: billing.billing, messages: messages.messages, clock }));
    server.route(workspaceOperatorRoutes({ operators, mailer: mail.mailer, operatorAddress: config.mailFrom, logger }));
    return { operators };
  },
});
