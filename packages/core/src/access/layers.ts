/**
 * Layers 1 and 2 as SQL, written once. Every statement that judges a credential (the request's
 * access statement, the live channels' judge, the session and API-key look-ups, the app tokens)
 * builds its FROM and WHERE from these fragments, so "valid" means the same thing everywhere:
 *
 * - an API key is `active` and not past its expiry;
 * - a session is not past its expiry and carries its account's current security stamp;
 * - the member behind either is `joined` and not deactivated;
 * - the workspace is `active` (where the statement reads the workspace).
 *
 * Fragments use fixed aliases: `k` (api_keys), `s` (sessions), `m` (members), `a` (accounts),
 * `w` (workspaces). `now` is the placeholder of the runtime's clock in the calling statement
 * (`$4::timestamptz`, `:now`, ...): expiry is judged on the runtime's clock, not the database's.
 */

/** The key, its member and the member's account: `FROM ${KEY_SOURCE}`. */
export const KEY_SOURCE = `platform.api_keys k
      JOIN platform.members m ON m.workspace_id = k.workspace_id AND m.id = k.member_id
      JOIN platform.accounts a ON a.id = m.account_id`;

/** The session, its member and its account: `FROM ${SESSION_SOURCE}`. */
export const SESSION_SOURCE = `platform.sessions s
      JOIN platform.members m ON m.workspace_id = s.workspace_id AND m.id = s.member_id
      JOIN platform.accounts a ON a.id = s.account_id`;

/** Layer 2's member half: joined and not deactivated (alias `m`). */
export const MEMBER_ACTIVE = `m.state = 'joined' AND m.deactivated_at IS NULL`;

/** The workspace is active (alias `w`). */
export const WORKSPACE_ACTIVE = `w.status = 'active'`;

/** Layer 1 for an API key and layer 2 for its member (aliases `k`, `m`). */
export function keyValid(now: string): string {
  return `k.status = 'active' AND (k.expires_at IS NULL OR k.expires_at > ${now}) AND ${MEMBER_ACTIVE}`;
}

/** Layer 1 for a session and layer 2 for its member (aliases `s`, `a`, `m`). */
export function sessionValid(now: string): string {
  return `s.expires_at > ${now} AND a.security_stamp = s.security_stamp AND ${MEMBER_ACTIVE}`;
}
