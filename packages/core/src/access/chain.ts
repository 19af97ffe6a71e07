import type { ChainStep, NamedCheckStep } from '@wpk/sdk';
import type { PermissionSet } from './permission-set.js';

/** A named check's outcome: passed, or failed with its own message (or none). */
export type CheckOutcome = { passed: true } | { passed: false; message?: string };

/** Runs one named check of the app's code. */
export type CheckRunner = (name: string) => Promise<CheckOutcome>;

/** The chain's verdict: allowed, or denied with the 403 message and a reason for the log. */
export type ChainVerdict = { allowed: true } | { allowed: false; message: string; reason: string; permission: string | null };

type StepVerdict = { passed: true } | { passed: false; message: string; reason: string; permission: string | null };

async function stepVerdict(step: string | NamedCheckStep, permissions: PermissionSet, runCheck: CheckRunner): Promise<StepVerdict> {
  if (typeof step === 'string') {
    return permissions.has(step) ? { passed: true } : { passed: false, message: `Missing permission: ${step}`, reason: `lacks ${step}`, permission: step };
  }
  const outcome = await runCheck(step.check);
  if (outcome.passed) return { passed: true };
  return { passed: false, message: outcome.message ?? step.message ?? `Denied by check ${step.check}`, reason: `check ${step.check} failed`, permission: null };
}

/**
 * Evaluates an authorization chain: every step must pass, in order, stopping at the first
 * failure. A permission key passes when held; a named check runs the app's code; an any-of group
 * passes when one alternative does (tried in order; a later check is not run once one passed).
 * Denial messages: `Missing permission: {key}`; for a check, its own message, else the step's
 * `message`, else `Denied by check {name}`; for a group, the group's `message`, else the first
 * failing check's message, else the last failing alternative's. The universal
 * wildcard (owners, admins) passes every chain without running checks.
 */
export async function evaluateChain(chain: readonly ChainStep[], permissions: PermissionSet, runCheck: CheckRunner): Promise<ChainVerdict> {
  if (permissions.universal) return { allowed: true };
  for (const step of chain) {
    if (typeof step === 'object' && 'any_of' in step) {
      let passed = false;
      let checkMessage: string | null = null;
      let lastMessage = '';
      for (const alternative of step.any_of) {
        const verdict = await stepVerdict(alternative, permissions, runCheck);
        if (verdict.passed) {
          passed = true;
          break;
        }
        if (typeof alternative !== 'string' && checkMessage === null) checkMessage = verdict.message;
        lastMessage = verdict.message;
      }
      if (!passed) {
        const reasons = `none of: ${step.any_of.map((alternative) => (typeof alternative === 'string' ? alternative : `check ${alternative.check}`)).join(', ')}`;
        return { allowed: false, message: step.message ?? checkMessage ?? lastMessage, reason: reasons, permission: null };
      }
      continue;
    }
    const verdict = await stepVerdict(step, permissions, runCheck);
    if (!verdict.passed) return { allowed: false, message: verdict.message, reason: verdict.reason, permission: verdict.permission };
  }
  return { allowed: true };
}
