import type { Request } from '@hapi/hapi';
import { ForbiddenError, UnauthorizedError } from '@wpk/sdk';
import type { CallerMember, Credentials, PlatformRole } from './credentials.js';

const RANK: Record<PlatformRole, number> = { member: 0, admin: 1, owner: 2 };

/** The caller's credentials (layer 1 ran); 401 when the route let an anonymous caller through. */
export function credentialsOf(request: Request): Credentials {
  const credentials = request.auth.credentials as Partial<Credentials> | null | undefined;
  if (!credentials?.member || !credentials.via) throw new UnauthorizedError('Authentication required');
  return credentials as Credentials;
}

/**
 * True when the caller holds at least `minimum` (owner > admin > member). A scoped API key holds
 * only its scopes: it never passes an owner or admin gate.
 */
export function hasPlatformRole(credentials: Credentials, minimum: PlatformRole): boolean {
  if (minimum !== 'member' && credentials.via.kind === 'api_key' && !credentials.via.fullAccess) return false;
  return RANK[credentials.member.platformRole] >= RANK[minimum];
}

/**
 * Layer 3: the platform-role gate of workspace-management routes. Returns the caller, or throws
 * 403 naming who may `action` (for example `requireRole(request, 'admin', 'invite members')`).
 */
export function requireRole(request: Request | Credentials, minimum: 'admin' | 'owner', action = 'do this'): CallerMember {
  const credentials = 'member' in request && 'via' in request ? (request as Credentials) : credentialsOf(request as Request);
  if (hasPlatformRole(credentials, minimum)) return credentials.member;
  if (credentials.via.kind === 'api_key' && !credentials.via.fullAccess && RANK[credentials.member.platformRole] >= RANK[minimum]) {
    throw new ForbiddenError(`A scoped API key cannot ${action}: it holds only its scopes`);
  }
  throw new ForbiddenError(minimum === 'owner' ? `Only the workspace owner can ${action}` : `Only workspace owners and admins can ${action}`);
}
