import { memberMrn, type BaseContext, type ContextPermissions } from '@wpk/sdk';
import type { Credentials, PermissionSet } from '../../access/index.js';
import { publicOrigin, type WorkspaceRecord } from '../../tenancy/index.js';
import type { LoadedApp } from '../loader.js';

/** `ctx.workspace`: who the work is for, with the workspace's public origin. */
export function contextWorkspace(workspace: WorkspaceRecord, publicUrl: string): BaseContext['workspace'] {
  return Object.freeze({ id: workspace.id, subdomain: workspace.subdomain, name: workspace.name, plan: workspace.plan, origin: publicOrigin(publicUrl, workspace.subdomain) });
}

/** `ctx.permissions`: the caller's keys within the app. */
export function contextPermissions(permissions: PermissionSet, app: LoadedApp): ContextPermissions {
  return Object.freeze({ has: (key: string) => permissions.has(key), keys: () => permissions.expand(app.declaredKeys) });
}

/** `ctx.member`: the caller. */
export function memberOf(credentials: Credentials) {
  const { member } = credentials;
  return Object.freeze({ id: member.id, mrn: memberMrn(member.id), name: member.name, email: member.email, platform_role: member.platformRole });
}

/** `ctx.key`: the API key the caller came with (null for a session or an app token). */
export function keyOf(credentials: Credentials) {
  return credentials.via.kind === 'api_key' ? Object.freeze({ id: credentials.via.keyId, full_access: credentials.via.fullAccess }) : null;
}
