import type { Account } from '../models/index.js';
import type { IdentityContext } from './context.js';
import { THROTTLES } from './throttle.js';

/**
 * Re-authentication of a signed-in caller by password (DELETE /totps, POST /elevations without
 * 2FA). Wrong passwords count against the account's sign-in bound (429 once reached). Run
 * outside any transaction so failures are kept.
 */
export async function confirmPassword(context: IdentityContext, account: Account, password: string): Promise<boolean> {
  await context.throttle.check(THROTTLES.signIn, account.email);
  if (await context.passwords.verify(password, account.password_hash)) return true;
  await context.throttle.hit(THROTTLES.signIn, account.email);
  return false;
}
