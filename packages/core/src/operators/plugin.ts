import type { CorePlugin } from '../core-inputs.js';
import { operatorRoutes, workspaceOperatorRoutes } from './routes.js';
import { OperatorService } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    operators: { operators: OperatorService };
  }
}

/** Operator admin (`/v/admin/…`): release notes, coupons and redemptions, preview apps and adopters, behind an operator credential. */
export const operatorsPlugin: CorePlugin = {
  name: 'operators',
  dependencies: ['db', 'server', 'mail', 'billing', 'messages'],
  register(server, { config, logger, seams }) {
    const operators = new OperatorService(server.plugins.db.database.sequelize, seams.clock);
    server.route(operatorRoutes({ operators, billing: server.plugins.billing.billing, messages: server.plugins.messages.messages, clock: seams.clock }));
    server.route(workspaceOperatorRoutes({ operators, mailer: server.plugins.mail.mailer, operatorAddress: config.mailFrom, logger }));
    server.expose('operators', operators);
  },
};
