import { defineCorePlugin, plugins } from '../core-plugin.js';
import { AuditListing } from './audit-listing.js';
import { installAuditTrail } from './audit-trail.js';
import { auditEndpoints } from './routes.js';

/** The audit trail: the runtime's subscription to every `system.security.*` action, written to `platform.activity`, and `GET /audit`. */
export const auditPlugin = defineCorePlugin({
  name: 'audit',
  deps: { db: plugins.db, events: plugins.events },
  after: ['server'],
  register(server, { db, events }) {
    const sequelize = db.database.sequelize;
    installAuditTrail(events.bus, sequelize);
    server.route(auditEndpoints(new AuditListing(sequelize)));
  },
});
