import { InvalidError, type AppPlatform, type PlatformAnswer, type PlatformRequest } from '@wpk/sdk';
import type { AppGrant } from '../../access/index.js';
import { nestingDepth, runNested } from '../../db/index.js';
import { memberIdOf } from '../members.js';
import type { ContextInputs } from './inputs.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const SCOPE = /^[a-z][a-z0-9_-]*(\.[a-z0-9_*-]+){1,4}$/;
/** A path of the workspace's own API: one leading slash (never `//host`), no backslash, no space or control character. */
const PATH = /^\/(?![/\\])[^\s\\]*$/;
const isPath = (path: string) => PATH.test(path) && ![...path].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
/** How deep requests may nest (an app's call whose target calls again): past it the call is refused. */
const MAX_DEPTH = 3;

function refuse(message: string): never {
  throw new InvalidError(`ctx.platform.request: ${message}`);
}

/**
 * `ctx.platform` of an app whose manifest declares `platform_requests`, or null. A call is an
 * in-process request of this workspace's API (the host is the workspace's, never the caller's
 * choice) with an app grant of the member: layers 1-5 judge it as that member narrowed to the
 * scopes. It runs inside the caller's work (a savepoint of its transaction, cls.ts `runNested`);
 * in strict mode the runtime's role is restored around it, as for claims.
 */
export function platformOf({ runtime, workspace, work, platform }: ContextInputs): AppPlatform | null {
  const { app } = runtime;
  const requester = platform.requests;
  if (app.manifest.platform_requests !== true || !requester) return null;
  return Object.freeze({
    async request(call: PlatformRequest): Promise<PlatformAnswer> {
      if (typeof call !== 'object' || call === null) refuse('the call must be an object');
      const memberId = typeof call.member === 'string' ? memberIdOf(call.member) : null;
      if (memberId === null) refuse('member must be a member id or member MRN');
      if (!Array.isArray(call.scopes) || call.scopes.length === 0 || call.scopes.length > 50 || !call.scopes.every((scope) => typeof scope === 'string' && SCOPE.test(scope))) {
        refuse('scopes must be a list of 1-50 permission keys');
      }
      if (typeof call.method !== 'string' || !METHODS.has(call.method)) refuse(`method must be one of ${[...METHODS].join(', ')}`);
      if (typeof call.path !== 'string' || call.path.length > 2000 || !isPath(call.path)) refuse("path must be a path of this workspace's API (/tasks), without a host");
      if (call.note !== undefined && (typeof call.note !== 'string' || call.note.length > 100)) refuse('note must be at most 100 characters');
      if (call.payload !== undefined && (call.method === 'GET' || call.method === 'DELETE')) refuse(`a ${call.method} request takes no payload`);
      if (nestingDepth() >= MAX_DEPTH) refuse(`requests nest at most ${MAX_DEPTH} deep`);
      const grant: AppGrant = { workspaceId: workspace.id, memberId, app: app.namespace, scopes: [...new Set(call.scopes)], note: call.note ?? null };
      const transaction = work.begin ? await work.begin() : work.transaction;
      if (!transaction) throw new Error('ctx.platform.request: the work has no transaction');
      const send = () => runNested(transaction, () => requester({ workspace, grant, method: call.method, path: call.path, payload: call.payload }));
      const inTurn = () => (work.gate ? work.gate.write(send) : send());
      const strict = platform.strict;
      if (!strict) return inTurn();
      await strict.leave();
      try {
        return await inTurn();
      } finally {
        await strict.enter(app);
      }
    },
  });
}
