import type { ObservedEvent, RuntimeOptions } from '../../src/index.js';
import { keyedWorkspace, startKeysRuntime, type KeyedWorkspace } from './keys.js';
import { apiHeaders, type TestRuntime } from './runtime.js';

/** A clock that stands still until a test moves it forward (the runtime's clock seam): billing periods come out exact. */
export class ManualClock {
  private current: number;
  constructor(start: Date) {
    this.current = start.getTime();
  }
  now = (): Date => new Date(this.current);
  /** Sets the clock to `instant` (forward only). */
  set(instant: Date): void {
    if (instant.getTime() < this.current) throw new RangeError(`the clock only moves forward (${instant.toISOString()})`);
    this.current = instant.getTime();
  }
}

/** A started runtime (the billing worker runs), its clock and every event committed to the outbox. */
export interface BillingRuntime extends TestRuntime {
  clock: ManualClock;
  events: ObservedEvent[];
  inject(method: string, url: string, headers: Record<string, string>, payload?: unknown): Promise<{ statusCode: number; payload: string; headers: Record<string, unknown> }>;
  workspace(subdomain: string): Promise<KeyedWorkspace>;
  /** A full-access key of a new member of `platformRole` in the workspace. */
  keyOf(workspace: KeyedWorkspace, platformRole: 'admin' | 'member', email: string): Promise<string>;
}

export async function startBillingRuntime(start: Date, options: RuntimeOptions = {}): Promise<BillingRuntime> {
  const clock = new ManualClock(start);
  const events: ObservedEvent[] = [];
  // The worker does not poll on its own (tests run its passes with runDue()), unless a test asks.
  const billing = { pollMs: 3_600_000, ...((options as { billing?: object }).billing ?? {}) };
  const env = await startKeysRuntime({ seams: { clock: clock.now }, events: { broker: false, observers: [(observed) => events.push(...observed)] }, ...options, billing } as RuntimeOptions);
  await env.runtime.start();
  return {
    ...env,
    clock,
    events,
    inject: async (method, url, headers, payload) => {
      const response = await env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: payload as object });
      return { statusCode: response.statusCode, payload: response.payload, headers: response.headers as Record<string, unknown> };
    },
    workspace: (subdomain) => keyedWorkspace(env, subdomain),
    async keyOf(workspace, platformRole, email) {
      const { memberId } = await env.runtime.identity.addMember({ workspaceId: workspace.id, email, password: 'member-password-1', platformRole });
      return (await env.runtime.apiKeys.issueFullAccessKey(workspace.id, memberId, `${platformRole} key`)).secret;
    },
  };
}

/** Headers of an operator call on the base domain. */
export function operatorHeaders(secret?: string): Record<string, string> {
  return { host: 'localhost', 'x-api-version': '2026-11-01', ...(secret ? { authorization: `Bearer ${secret}` } : {}) };
}

export { apiHeaders };
