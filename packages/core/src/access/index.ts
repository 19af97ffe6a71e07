export type { ApiKeyCredential, CallerMember, Credentials, PlatformRole, SessionCredential } from './credentials.js';
