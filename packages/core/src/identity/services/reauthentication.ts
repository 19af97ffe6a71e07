import type { Account } from '../models/index.js';
import type { IdentityContext } from './context.js';
import { THROTTLES } from './throttle.js';

/**
 * Re-authentication of a signed-in caller by password (DELETE /totps, POST /elevations without
 * 2FA). Wrong passwords count against the account's sign-in bound (429 once reached). Run
 * outside any transaction so failures are kept.
 */
export async function confirmPassword(context: IdentityContext, account: Account, password: string): Promise<boolean> {
  const matched = await context.throttle.attempt(THROTTLES.signIn, account.email, () => context.passwords.verify(password, account.password_hash));
  return matched !== false;
}
