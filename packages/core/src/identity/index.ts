/**
 * Identity: accounts, members, custom roles, sessions (the `wpk` auth scheme, layers 1 and 2),
 * sign-up, invitations, password resets, TOTP, elevation, admin audit, activity, avatars.
 */
export { AUTH_STRATEGY, AUTHENTICATION_REQUIRED, INVALID_API_KEY, INVALID_APP_TOKEN, NOT_A_MEMBER, bearerToken, type ApiKeyAuthenticator, type AppTokenAuthenticator } from './http/auth-scheme.js';
export { SESSION_COOKIE } from './http/cookies.js';
export { crossSiteRefusal } from './http/csrf.js';
export { installIdentity } from './http/install.js';
export { DEMO, IdentityService, type AddMemberInput, type CreateWorkspaceWithOwnerInput, type IdentityServiceOptions } from './identity-service.js';
export { Account, defineIdentityModels, Member, MemberRole, Role, type RolePermissions } from './models/index.js';
export { requireElevation, requireSession } from './routes/common.js';
export { type AvatarStorage } from './services/avatar-storage.js';
export { presentMember, type PresentedMember } from './services/members.js';
export { PasswordHasher } from './services/passwords.js';
export { loadSecretKey, SecretBox } from './services/secret-box.js';
export { validatePermissions, type RoleService } from './services/roles.js';
export type { AdminAudit } from './services/admin-audit.js';
export { LOCKOUT_MAIL, SESSION_TTL_SECONDS } from './services/sessions.js';
export { DEVICE_COOKIE, KnownDevices } from './services/known-devices.js';
export { THROTTLES, Throttle, type CountedAttempt, type ThrottleRule } from './services/throttle.js';
