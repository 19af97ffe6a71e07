/**
 * Who is calling, as the authentication layer (layer 1) leaves it on `request.auth.credentials`.
 * Layers 2-5 and every handler read this shape, whether it came from a session cookie or an
 * API key.
 */
export type PlatformRole = 'owner' | 'admin' | 'member';

export interface CallerMember {
  id: string;
  workspaceId: string;
  accountId: string;
  platformRole: PlatformRole;
  email: string;
  name: string;
}

export interface SessionCredential {
  kind: 'session';
  sessionId: string;
  /** The session is in admin mode (elevated) until this instant; null when not elevated. */
  elevatedUntil: Date | null;
}

export interface ApiKeyCredential {
  kind: 'api_key';
  keyId: string;
  fullAccess: boolean;
  /** The scoped key's entire permission set; ignored for full-access keys. */
  scopes: string[];
  /** When the key was last recorded as used (one-minute resolution), as read at authentication. */
  lastUsedAt?: Date | null;
}

/**
 * An app's bridge token (app-tokens/): the shell hands it to the app's sandboxed front-end. It
 * stands for its member within one app only, and lives no longer than its session (nor than its
 * few minutes).
 */
export interface AppTokenCredential {
  kind: 'app_token';
  /** The session it was issued from: signing out or revoking that session ends the token. */
  sessionId: string;
  /** The only app whose routes it reaches (`tasks`, `ext.acme.hello`). */
  app: string;
  expiresAt: Date;
}

/**
 * An app's in-process request for a member (`ctx.platform.request`): it never leaves the process
 * and holds the member's current permissions narrowed to `scopes`, never more.
 */
export interface AppGrantCredential {
  kind: 'app_grant';
  /** The app acting for the member (`wands`, `ext.acme.flows`). */
  app: string;
  /** The grant's scopes: the member's rights are intersected with them at every layer. */
  scopes: string[];
  /** The app's note for the trail (a wand's run id), or null. */
  note: string | null;
}

/** How the caller proved who they are. */
export type CallerCredential = SessionCredential | ApiKeyCredential | AppTokenCredential | AppGrantCredential;

/** The scopes that bound the caller (a scoped key's, an app grant's), or null when the caller is bounded by their roles alone. */
export function scopesOf(credentials: Credentials): string[] | null {
  const { via } = credentials;
  if (via.kind === 'api_key') return via.fullAccess ? null : via.scopes;
  return via.kind === 'app_grant' ? via.scopes : null;
}

export interface Credentials {
  member: CallerMember;
  via: CallerCredential;
}

declare module '@hapi/hapi' {
  interface UserCredentials {
    member: CallerMember;
    via: CallerCredential;
  }
  // The scheme puts `{ member, via }` directly on request.auth.credentials (read it with
  // `credentialsOf(request)` from access/ for a non-null, typed value).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface AuthCredentials<AuthUser, AuthApp> {
    member?: CallerMember;
    via?: CallerCredential;
  }
}
