export { Database, redactUrl, type DatabaseOptions } from './database.js';
export { DataDirectoryLockedError, EmbeddedPostgres, lockDataDirectory } from './embedded.js';
export { migrateDown, migrateUp, pendingMigrations, type Migration, type MigrationContext, type MigrationProgress, type MigrationSet } from './migrations.js';
export { platformMigrations } from './migrations/index.js';
export { scopeToWorkspace, type TenantScopedModel } from './tenant-scope.js';
export { FastQuery, statement, type Statement } from './fast-query.js';
export { assertUuidValues, uuidColumns } from './uuid-columns.js';
export { healthRoutes } from './routes.js';
export { CROSS_TENANT_STATEMENTS, StatementRecorder, type CrossTenantStatement, type SqlParser, type StatementViolation } from './statement-check.js';
