export { auditEntry, installAuditTrail } from './audit-trail.js';
export { auditPlugin } from './plugin.js';
