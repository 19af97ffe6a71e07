/**
 * The public surface of @wpk/core: what the CLI, the test harness (@wpk/testing), the benches
 * and the operators' tools use. Apps never import it (they use @wpk/sdk). Everything else is
 * internal to core: a folder's own index.ts is its door for the other folders
 * (docs/architecture.md). A name added here is public API; keep the list short (issue 36: ≤ 60).
 */
// The runtime and its configuration.
export { Runtime, type RuntimeOptions, type StartupProgress } from './runtime.js';
export type { RuntimeSeams } from './core-inputs.js';
export { resolveConfig, storageConfig, type RuntimeConfig, type RuntimeConfigInput } from './config.js';
export { CONFIG_GROUPS, CONFIG_VARIABLES, PROJECT_CONFIG_FIELDS, type ConfigGroup, type ConfigVariable, type ProjectConfigField } from './config-reference.js';
export { createLogger } from './logger.js';
// Apps: the project's config and loading (wpk validate, add, remove, manifest, types).
export { AppLoadError, CONFIG_FILES, findEntryModule, findPackageDir, importAppDefinition, isKitPackage, loadApps, readProjectConfig, type AppEntry, type LoadedApp, type SearchOperation } from './apps/index.js';
export { ACCESS_STATEMENTS, AccessDenied, isInstalled, type AccessDenial } from './access/index.js';
// The database: migrations, the embedded server, the scale-out catalog and the statement check.
export { CROSS_TENANT_STATEMENTS, DataDirectoryLockedError, EmbeddedPostgres, PLATFORM_DISTRIBUTION, StatementRecorder, distributionCatalog, distributionProblems, lockDataDirectory, migrateDown, migrateUp, pendingMigrations, platformDistributionPlan, platformMigrations, scopeToWorkspace, type MigrationProgress } from './db/index.js';
export { createScratchDatabase, type ScratchDatabase } from './testing.js';
// Events: the standalone broker and the secrets it signs with.
export { appSecret, resolveBrokerSecret, startStandaloneBroker, type DeliveryLogEntry, type ObservedEvent } from './events/index.js';
export type { MailMessage, Mailer } from './mail/index.js';
// Search, OpenAPI and the server's conventions (the benches compare a bare route with them).
export { SearchIndex, registerSearchRoutes, type ReindexProgress, type SearchAccess } from './search/index.js';
export { buildOpenApiDocument, installResponseValidation, joiToJsonSchema, type OpenApiDocument, type ResponseValidation } from './openapi/index.js';
export { collection, createServer, parsePagination, single } from './server/index.js';
export { WorkspaceService, type Workspace } from './tenancy/index.js';
export { LocalDiskDriver, S3Driver, checkKey, type StorageDriver } from './storage/index.js';
