import type { CorePlugin } from '../core-inputs.js';
import { AuditListing } from './audit-listing.js';
import { installAuditTrail } from './audit-trail.js';
import { auditEndpoints } from './routes.js';

/** The audit trail: the runtime's subscription to every `system.security.*` action, written to `platform.activity`, and `GET /audit`. */
export const auditPlugin: CorePlugin = {
  name: 'audit',
  dependencies: ['db', 'server', 'events'],
  register(server) {
    const sequelize = server.plugins.db.database.sequelize;
    installAuditTrail(server.plugins.events.bus, sequelize);
    server.route(auditEndpoints(new AuditListing(sequelize)));
  },
};
