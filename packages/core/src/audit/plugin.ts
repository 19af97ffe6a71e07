import type { CorePlugin } from '../core-inputs.js';
import { installAuditTrail } from './audit-trail.js';

/** The audit trail: the runtime's subscription to every `system.security.*` action, written to `platform.activity`. */
export const auditPlugin: CorePlugin = {
  name: 'audit',
  dependencies: ['db', 'events'],
  register(server) {
    installAuditTrail(server.plugins.events.bus, server.plugins.db.database.sequelize);
  },
};
