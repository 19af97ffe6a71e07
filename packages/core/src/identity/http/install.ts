import type { Server } from '@hapi/hapi';
import { appGrantCredentials } from '../../access/index.js';
import type { RuntimeConfig } from '../../config.js';
import type { IdentityService } from '../identity-service.js';
import { accountRoutes } from '../routes/account.js';
import { memberRoutes } from '../routes/members.js';
import { publicRoutes } from '../routes/public.js';
import { workspaceRoutes } from '../routes/workspace.js';
import { registerAdminAuditRecorder } from './admin-audit-recorder.js';
import { registerAuthScheme, type AppTokenAuthenticator } from './auth-scheme.js';
import { declareSessionCookie } from './cookies.js';
import { registerCsrfProtection } from './csrf.js';

/**
 * Installs identity on the server: the session cookie, the `wpk` auth scheme as the default of
 * every route (public routes declare `auth: false`), CSRF protection, the admin-audit recorder
 * and identity's routes.
 */
export function installIdentity(server: Server, identity: IdentityService, config: RuntimeConfig, appTokens: AppTokenAuthenticator | null = null): void {
  declareSessionCookie(server, config);
  registerAuthScheme(server, { sessions: identity.sessions, apiKeys: identity.apiKeys(), appTokens, appGrants: (grant) => appGrantCredentials(identity.context.sequelize, grant) });
  registerCsrfProtection(server, config.publicUrl);
  registerAdminAuditRecorder(server, identity.audit, identity.context.logger, identity.context.clock);
  const dependencies = { identity, config };
  server.route([...publicRoutes(dependencies), ...accountRoutes(dependencies), ...memberRoutes(dependencies), ...workspaceRoutes(dependencies)]);
  // Expired sessions and old throttle counts are dropped hourly while the server runs.
  let timer: NodeJS.Timeout | undefined;
  server.events.on('start', () => {
    timer = setInterval(() => {
      identity.prune().catch((error: unknown) => identity.context.logger.warn({ err: error }, 'identity: pruning failed'));
    }, 3_600_000);
    timer.unref();
  });
  server.events.on('stop', () => clearInterval(timer));
}
