export { AuditListing, type AuditEntry, type AuditFilter } from './audit-listing.js';
export { auditEntry, installAuditTrail } from './audit-trail.js';
