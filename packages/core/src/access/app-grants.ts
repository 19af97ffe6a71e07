import type { Request } from '@hapi/hapi';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Credentials, PlatformRole } from './credentials.js';
import { MEMBER_ACTIVE, WORKSPACE_ACTIVE } from './layers.js';

/**
 * What an app's in-process request for a member (`ctx.platform.request`) carries. It rides on
 * `request.app` (hapi's `inject` sets it), never in a header: no request from outside the process
 * can present one.
 */
export interface AppGrant {
  /** The calling app's workspace: the only one the request can reach. */
  workspaceId: string;
  memberId: string;
  /** The calling app's namespace. */
  app: string;
  scopes: string[];
  /** The app's note for the trail (a wand's run id), or null. */
  note: string | null;
}

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    /** Set by `ctx.platform.request` only (access/app-grants.ts). */
    appGrant?: AppGrant;
  }
}

/** The grant an in-process app request carries, or null for every other request. */
export function appGrantOf(request: Request): AppGrant | null {
  return request.app.appGrant ?? null;
}

/**
 * Layer 1 for an app grant: the credentials of its member, read afresh (joined, not deactivated,
 * in an active workspace), or null. Read in the ambient transaction when the caller is in one
 * (the app's work): on the embedded database a second connection would wait behind it.
 */
export async function appGrantCredentials(sequelize: Sequelize, grant: AppGrant): Promise<Credentials | null> {
  const [row] = await sequelize.query<{ member_id: string; account_id: string; platform_role: PlatformRole; email: string; name: string }>(
    `SELECT m.id AS member_id, m.account_id, m.platform_role, a.email, a.name
       FROM platform.members m
       JOIN platform.accounts a ON a.id = m.account_id
       JOIN platform.workspaces w ON w.id = m.workspace_id
      WHERE m.workspace_id = :workspace AND m.id = :member AND ${MEMBER_ACTIVE} AND ${WORKSPACE_ACTIVE}`,
    { type: QueryTypes.SELECT, replacements: { workspace: grant.workspaceId, member: grant.memberId } },
  );
  if (!row) return null;
  return {
    member: { id: row.member_id, workspaceId: grant.workspaceId, accountId: row.account_id, platformRole: row.platform_role, email: row.email, name: row.name },
    via: { kind: 'app_grant', app: grant.app, scopes: [...grant.scopes], note: grant.note },
  };
}
