import type { Account } from '../models/index.js';
import type { IdentityContext } from './context.js';
import { THROTTLES } from './throttle.js';

/**
 * Re-authentication of a signed-in caller by password (DELETE /totps, POST /elevations without
 * 2FA). Wrong passwords count against the account's sign-in bound (429 once reached); the check
 * is bounded by the hashing limiter for the client address `ip`. Run outside any transaction so
 * failures are kept.
 */
export async function confirmPassword(context: IdentityContext, account: Account, password: string, ip: string | null): Promise<boolean> {
  context.passwords.admit({ ip });
  const matched = await context.throttle.attempt(THROTTLES.signIn, account.email, () => context.passwords.verify(password, account.password_hash, { ip }));
  return matched !== false;
}
