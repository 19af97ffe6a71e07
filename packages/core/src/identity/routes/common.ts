import type { Request, ResponseToolkit } from '@hapi/hapi';
import { ForbiddenError, Joi } from '@wpk/sdk';
import type { Credentials } from '../../access/index.js';
import type { RuntimeConfig } from '../../config.js';
import { clientAddressOf, runInRequestTransaction, type RequestWork } from '../../server/index.js';
import { presentWorkspace, publicOrigin } from '../../tenancy/index.js';
import type { IdentityService } from '../identity-service.js';
import { presentMember } from '../services/members.js';

/** What identity's route modules receive. */
export interface RouteDependencies {
  identity: IdentityService;
  config: RuntimeConfig;
}

/** Field rules shared by several routes (bounds from the specification, or decided in docs/decisions/0026-identity-endpoints.md). */
export const fields = {
  email: Joi.string().trim().lowercase().max(254).email({ tlds: { allow: false } }),
  password: Joi.string().min(8).max(1024),
  name: Joi.string().trim().min(1).max(200),
  // Ids are strings of any shape: an unknown one is a 404 from the service, never a 400.
  id: Joi.id(),
};

/** The client's address (behind a trusted proxy, the one it forwarded), for limits and the activity trail. */
export function ipOf(request: Request): string | null {
  return clientAddressOf(request) || null;
}

/**
 * Where links in mails point: the public origin of the request's workspace, or of the base
 * domain when the flow has none (sign-up). From configuration only, never from the Host header,
 * so a forged Host cannot send a live token to someone else's server.
 */
export function linkBaseOf(request: Request, config: RuntimeConfig): string {
  return publicOrigin(config.publicUrl, request.app.workspace?.subdomain ?? null);
}

/** Runs a handler in the request's transaction; staged events leave only on a 2xx answer. */
export function inTransaction(dependencies: RouteDependencies, request: Request, h: ResponseToolkit, handler: (work: RequestWork) => Promise<unknown>): Promise<unknown> {
  return runInRequestTransaction(dependencies.identity.context.sequelize, dependencies.identity.eventSink(), request, h, handler);
}

/** Throws 403 unless the caller's session is elevated (admin mode) right now. */
export function requireElevation(credentials: Credentials, action: string): void {
  if (credentials.via.kind !== 'session') throw new ForbiddenError(`Admin mode is required to ${action}, and only a browser session can enter it (POST /elevations)`);
  const until = credentials.via.elevatedUntil;
  if (!until || until.getTime() <= Date.now()) throw new ForbiddenError(`Admin mode is required to ${action}: re-authenticate with POST /elevations first`);
}

/** Throws 403 unless the caller came with a browser session (2FA settings, sign-out, elevation). */
export function requireSession(credentials: Credentials, action: string): string {
  if (credentials.via.kind !== 'session') throw new ForbiddenError(`An API key cannot ${action}: use a browser session`);
  return credentials.via.sessionId;
}

/** GET /me and the sign-in answers: the member, their workspace and platform role. */
export async function presentMe(dependencies: RouteDependencies, workspaceId: string, memberId: string, session: { kind: 'session' | 'api_key' | 'app_token' | 'app_grant'; elevatedUntil: Date | null }) {
  const member = await dependencies.identity.context.models.Member.findOne({ where: { workspace_id: workspaceId, id: memberId }, rejectOnEmpty: true });
  const account = await dependencies.identity.context.models.Account.findByPk(member.account_id, { rejectOnEmpty: true });
  const workspace = await dependencies.identity.context.workspaces.findById(member.workspace_id);
  const roles = await dependencies.identity.members.roleIdsOf(workspaceId, [member.id]);
  return {
    member: presentMember(member, account, roles.get(member.id) ?? []),
    workspace: presentWorkspace(workspace!),
    platform_role: member.platform_role,
    two_factor_enabled: account.totp_secret !== null,
    credential: session.kind,
    elevated_until: session.elevatedUntil && session.elevatedUntil.getTime() > dependencies.identity.context.clock().getTime() ? session.elevatedUntil.toISOString() : null,
  };
}
