export { resolveConfig, type RuntimeConfig, type RuntimeConfigInput } from './config.js';
export * from './db/index.js';
export { AUTH_STRATEGY, DEMO, IdentityService, SESSION_COOKIE, type AddMemberInput, type ApiKeyAuthenticator, type CreateWorkspaceWithOwnerInput } from './identity/index.js';
export { createLogger } from './logger.js';
export { createMailer, type Mailer, type MailMessage, type SentMail } from './mail/index.js';
export { Runtime, type RuntimeOptions } from './runtime.js';
export * from './server/index.js';
export * from './tenancy/index.js';
export { createScratchDatabase, type ScratchDatabase } from './testing.js';
