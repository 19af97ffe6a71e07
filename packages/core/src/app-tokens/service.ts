import { ForbiddenError, NotFoundError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import { APP_ACCESS_DENIED, SESSION_SOURCE, WORKSPACE_ACTIVE, defaultPermissionSourceFactory, isInstalled, sessionValid, type Credentials, type PlatformRole } from '../access/index.js';
import type { AppRegistry, InstallationService } from '../apps/index.js';
import { APP_TOKEN_TTL_SECONDS, AppTokenSigner } from './tokens.js';

/** A token handed out, with its expiry. */
export interface IssuedAppToken {
  token: string;
  app: string;
  expires_at: Date;
  /** The member's keys among the app's declared ones, at issue (what the front-end offers; the server still judges every request). */
  permissions: string[];
}

/** The session a token stands on, read afresh on every request. */
interface SessionRow {
  member_id: string;
  account_id: string;
  platform_role: PlatformRole;
  email: string;
  name: string;
}

/**
 * App tokens (docs/ui.md, "The bridge"): what the workspace shell hands an app's sandboxed
 * front-end instead of the session cookie. A token is issued for one app the member can open
 * (layer 4, judged at issue and again on every request by the app guard), to a browser session
 * only; it reaches that app's routes alone, with the member's permissions there. It expires in
 * minutes, and it is read on every request together with its session's row: signing out,
 * revoking the session, a password change (the account's security stamp), the member's removal
 * or deactivation end it on the next request.
 */
export class AppTokenService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly signer: AppTokenSigner,
    private readonly apps: AppRegistry,
    private readonly installations: InstallationService,
    private readonly clock: () => Date,
  ) {}

  /** A token for `app`, for the member of this browser session; refused when the member cannot open the app. */
  async issue(credentials: Credentials, app: string): Promise<IssuedAppToken> {
    if (credentials.via.kind !== 'session') throw new ForbiddenError('App tokens are handed out to a browser session only');
    if (!this.apps.get(app)) throw new NotFoundError(`No app ${app.slice(0, 100)}`);
    const installation = await this.installations.find(credentials.member.workspaceId, app);
    if (!isInstalled(installation)) throw new ForbiddenError(APP_ACCESS_DENIED);
    const source = defaultPermissionSourceFactory(credentials, this.sequelize);
    const decision = await source.appAccess(app, installation);
    if (!decision.allowed) throw new ForbiddenError(APP_ACCESS_DENIED);
    const permissions = (await source.appPermissions(app)).expand(this.apps.get(app)!.declaredKeys);
    const expires = Math.floor(this.clock().getTime() / 1000) + APP_TOKEN_TTL_SECONDS;
    const token = this.signer.sign({ w: credentials.member.workspaceId, m: credentials.member.id, s: credentials.via.sessionId, a: app, e: expires });
    return { token, app, expires_at: new Date(expires * 1000), permissions };
  }

  /**
   * The credentials a token stands for, or null when it is malformed, forged, expired, or its
   * session is over (signed out, expired, its account's stamp changed, the member gone).
   */
  async authenticate(token: string): Promise<Credentials | null> {
    const claims = this.signer.read(token);
    const now = this.clock();
    if (!claims || claims.e * 1000 <= now.getTime()) return null;
    const [row] = await this.sequelize.query<SessionRow>(
      `SELECT m.id AS member_id, m.account_id, m.platform_role, a.email, a.name
         FROM ${SESSION_SOURCE}
         JOIN platform.workspaces w ON w.id = s.workspace_id
        WHERE s.workspace_id = :workspace AND s.id = :session AND s.member_id = :member AND ${sessionValid(':now')} AND ${WORKSPACE_ACTIVE}`,
      { type: QueryTypes.SELECT, replacements: { workspace: claims.w, session: claims.s, member: claims.m, now }, transaction: null },
    );
    if (!row) return null;
    return {
      member: { id: row.member_id, workspaceId: claims.w, accountId: row.account_id, platformRole: row.platform_role, email: row.email, name: row.name },
      via: { kind: 'app_token', sessionId: claims.s, app: claims.a, expiresAt: new Date(claims.e * 1000) },
    };
  }
}
