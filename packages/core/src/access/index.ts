export { scopesOf } from './credentials.js';
export type { ApiKeyCredential, AppGrantCredential, AppTokenCredential, CallerMember, CallerCredential, Credentials, PlatformRole, SessionCredential } from './credentials.js';
export { credentialsOf, hasPlatformRole, requireRole } from './platform-role.js';
export { APP_ACCESS_DENIED, appGuard, type AccessDenial, type AppGuardOptions, type AppRequestAccess, type AppRouteAccess } from './app-guard.js';
export { AccessDenied, type DenialLayer } from './denial.js';
export { evaluateChain, type ChainVerdict, type CheckOutcome, type CheckRunner } from './chain.js';
export { PermissionSet } from './permission-set.js';
export { defaultPermissionSourceFactory, isInstalled, readsRoles, MemberPermissionSource, ScopedKeyPermissionSource, type AccessDecision, type InstallationView, type PermissionSource, type PermissionSourceFactory, type PrefetchedRoles } from './permission-source.js';
export { KEY_SOURCE, MEMBER_ACTIVE, SESSION_SOURCE, WORKSPACE_ACTIVE, keyValid, sessionValid } from './layers.js';
export { ACCESS_STATEMENTS, RequestAccess, requestAccess, resolveRequestAccess, type AccessReading, type CredentialJudge, type InstallationRecord, type PrefetchedInstallation, type PresentedKind } from './request-access.js';
export { permissionDeniedEmitter, type DenialPublisher } from './denial-events.js';
export {
  installPlatformGuard,
  isPlatformPermissionKey,
  PLATFORM_KEYS_NOT_IN_ROLES,
  PLATFORM_NAMESPACE,
  PLATFORM_PERMISSION_KEYS,
  PLATFORM_PERMISSIONS,
  platformAccessOverview,
  scopedKeyCoversRoute,
  type PlatformPermission,
  type PlatformPermissionKey,
  type PlatformRouteAccess,
} from './platform-permissions.js';
export { explainAccess, resolveAction, type ExplainCatalog, type ExplainedApp } from './explain.js';
export { appGrantCredentials, appGrantOf, type AppGrant } from './app-grants.js';
