import type { Request } from '@hapi/hapi';
import { ForbiddenError, UnauthorizedError } from '@wpk/sdk';
import { scopesOf, type CallerMember, type Credentials, type PlatformRole } from './credentials.js';
import { scopedKeyCoversRoute } from './platform-permissions.js';

const RANK: Record<PlatformRole, number> = { member: 0, admin: 1, owner: 2 };

/** The caller's credentials (layer 1 ran); 401 when the route let an anonymous caller through. */
export function credentialsOf(request: Request): Credentials {
  const credentials = request.auth.credentials as Partial<Credentials> | null | undefined;
  if (!credentials?.member || !credentials.via) throw new UnauthorizedError('Authentication required');
  return credentials as Credentials;
}

/**
 * True when the caller holds at least `minimum` (owner > admin > member). A scoped API key holds
 * only its scopes (as does an app's grant): it never passes an owner or admin gate.
 */
export function hasPlatformRole(credentials: Credentials, minimum: PlatformRole): boolean {
  if (minimum !== 'member' && scopesOf(credentials) !== null) return false;
  return RANK[credentials.member.platformRole] >= RANK[minimum];
}

/**
 * Layer 3: the platform-role gate of workspace-management routes. Returns the caller, or throws
 * 403 naming who may `action` (for example `requireRole(request, 'admin', 'invite members')`).
 * A scoped key whose scopes hold the route's platform key (given the request) is judged as its
 * member; any other scoped key never passes.
 */
export function requireRole(request: Request | Credentials, minimum: 'admin' | 'owner', action = 'do this'): CallerMember {
  const given = 'member' in request && 'via' in request ? null : (request as Request);
  const credentials = given ? credentialsOf(given) : (request as Credentials);
  const ranks = RANK[credentials.member.platformRole] >= RANK[minimum];
  const covered = given !== null && scopedKeyCoversRoute(given, credentials);
  if (hasPlatformRole(credentials, minimum) || (covered && ranks)) return credentials.member;
  if (!covered && ranks && scopesOf(credentials) !== null) {
    throw new ForbiddenError(`${credentials.via.kind === 'app_grant' ? "An app's grant" : 'A scoped API key'} cannot ${action}: it holds only its scopes`);
  }
  throw new ForbiddenError(minimum === 'owner' ? `Only the workspace owner can ${action}` : `Only workspace owners and admins can ${action}`);
}
