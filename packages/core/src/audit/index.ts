export { auditEntry, installAuditTrail } from './audit-trail.js';
