/**
 * What the Calls tests add to `startWorld` of @wpk/testing: the app installed for permitted roles
 * only, members holding the everyday calls keys by default, and the app loaded from its folder
 * where a test needs its public files (`/public/apps/calls/*`).
 */
import { startWorld, type TestApp, type World } from '@wpk/testing';
import { fileURLToPath } from 'node:url';
import app from '../../src/index.js';

export const MEMBER_KEYS = ['calls.calls.create', 'calls.calls.read', 'calls.calls.join', 'calls.recordings.create'];

export function callsWorld(subdomain: string, options: { port?: number; apps?: TestApp[]; firstParty?: boolean | string[]; fromDirectory?: boolean } = {}): Promise<World> {
  const calls: TestApp = options.fromDirectory ? fileURLToPath(new URL('../..', import.meta.url)) : app;
  return startWorld({
    app: calls,
    subdomain,
    apps: options.apps,
    firstParty: options.firstParty,
    ...(options.port ? { port: options.port } : {}),
    install: { access_policy: 'roles' },
    memberKeys: MEMBER_KEYS,
  });
}
