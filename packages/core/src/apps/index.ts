export { AppLoadError, findEntryModule, findPackageDir, importAppDefinition, isKitPackage, loadApps, RESERVED_SLUGS, type AppEntry, type LoadedApp } from './loader.js';
export { CONFIG_FILES, readProjectConfig, type ProjectConfig } from './project-config.js';
export { AppRegistry, type AppParticipant, type AppRegistryOptions } from './registry.js';
export { AppHost, type AppHostParts } from './host.js';
export { appSearchAccess, searchIndexerOver, type AppSearchAccess } from './search-access.js';
export { InstallationService, type AccessPolicyInput, type InstallationRow, type RoleSlice } from './installations.js';
export type { SearchIndexer, SearchOperation } from './search-operations.js';
export { StrictRoles } from './strict-roles.js';
