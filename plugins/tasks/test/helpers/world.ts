/**
 * What the Tasks tests add to `startWorld` of @wpk/testing: the app installed for permitted roles
 * only, and loaded from its folder where a test needs its front-end (`ui/`, for the browser test).
 */
import { ok, startWorld, type TestCaller, type TestMember, type TestResponse, type World } from '@wpk/testing';
import { fileURLToPath } from 'node:url';
import app from '../../src/index.js';

/** A caller with an id: a member of the workspace. */
export type Caller = TestMember;
export type { TestCaller, TestResponse, World };
export { ok };

/** `listen`: a platform on a loopback port, the app loaded from its folder (so its front-end is built and served). */
export function tasksWorld(subdomain: string, options: { listen?: boolean } = {}): Promise<World> {
  return startWorld({
    app: options.listen ? fileURLToPath(new URL('../..', import.meta.url)) : app,
    subdomain,
    listen: options.listen ?? false,
    install: { access_policy: 'roles' },
  });
}
