import type { LoadedApp } from '../loader.js';
import type { StrictRoles } from '../strict-roles.js';

/**
 * Calls that read or write the platform's schema on behalf of an app in strict mode, where the
 * app's own role cannot reach it: each steps back to the runtime's role and returns to the
 * app's, one call at a time (the transaction's role is one setting for all its statements).
 */
export function runtimeRoleCalls(strict: StrictRoles, app: LoadedApp): <T>(call: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(call: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      await strict.leave();
      try {
        return await call();
      } finally {
        await strict.enter(app);
      }
    });
    queue = run.catch(() => {});
    return run;
  };
}
