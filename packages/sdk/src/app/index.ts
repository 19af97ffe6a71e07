export * from './context.js';
export * from './models.js';
export { compileSql, isSqlFragment, joinSql, sql, type SqlFragment } from './sql.js';
export { column, Column, type ColumnMap, type ColumnValue } from './columns.js';
export * from './routes.js';
export * from './storage.js';
export { contentDisposition, fileNameOf } from './content-disposition.js';
export { authorizationTable, defineApp, validateApp, type AnyAppDefinition, type AppCheck, type AppDefinition, type AppMigration, type AppMigrationContext, type AppParts, type AppService, type AppServiceHost, type CheckContext, type CheckResult, type ContextOf, type LiveChannelKind, type SearchHooks, type SignalingSessionKind, type SubscriptionHandler, type SubscriptionHandlers } from './define-app.js';
export { dropTenantTable, tenantTable, type TenantTableOptions } from './tenant-table.js';
