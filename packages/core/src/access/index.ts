export type { ApiKeyCredential, CallerMember, Credentials, PlatformRole, SessionCredential } from './credentials.js';
export { credentialsOf, hasPlatformRole, requireRole } from './platform-role.js';
