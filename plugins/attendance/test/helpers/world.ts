/**
 * The Attendance app's test fixture, built on @wpk/testing: a real platform with the app
 * (first-party) on the harness clock, one workspace where it is installed (policy `roles`).
 */
import { createTestPlatform, TestClock, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  clock: TestClock;
  /** A member allowed into Attendance holding exactly these keys. */
  member(keys: string[], name?: string): Promise<TestMember>;
  /** The `core.attendance.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  /** Sets the clock to `instant` (ISO), forward only. */
  at(instant: string): void;
  close(): Promise<void>;
}

export async function startWorld(subdomain: string, start = '2027-03-01T06:00:00.000Z'): Promise<World> {
  const clock = new TestClock(new Date(start));
  const platform = await createTestPlatform({ apps: [app], firstParty: true, clock });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('attendance');
    platform.takeEvents();
    return {
      platform,
      workspace,
      owner: workspace.owner,
      clock,
      member: (keys, name) => workspace.member({ permissions: keys, ...(name ? { name } : {}) }),
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.attendance.'))
          .map((event) => ({ action: event.action, payload: event.payload })),
      at: (instant) => void clock.set(new Date(instant)),
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** The answer's data, or a thrown error naming the status and body. */
export async function ok(reply: Promise<{ status: number; body: any }>): Promise<any> {
  const answer = await reply;
  if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}
