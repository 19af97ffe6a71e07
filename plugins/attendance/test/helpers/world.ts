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
  clock: StillClock;
  /** A member allowed into Attendance holding exactly these keys. */
  member(keys: string[], name?: string): Promise<TestMember>;
  /** The `core.attendance.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  /** Sets the clock to `instant` (ISO), forward only. */
  at(instant: string): void;
  close(): Promise<void>;
}

/**
 * The harness clock, held still: it moves only when told (`advance`, `set`), never with real time,
 * so an instant a test sets is the instant the app reads however slow the machine is.
 */
export class StillClock extends TestClock {
  private instant: number;

  constructor(start: Date) {
    super(start);
    this.instant = start.getTime();
  }

  override now(): Date {
    return new Date(this.instant);
  }

  override advance(by: number | { days?: number; hours?: number; minutes?: number; seconds?: number }): Date {
    const ms = typeof by === 'number' ? by : (((by.days ?? 0) * 24 + (by.hours ?? 0)) * 60 + (by.minutes ?? 0)) * 60_000 + (by.seconds ?? 0) * 1000;
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('StillClock.advance: the clock only moves forward');
    this.instant += ms;
    return this.now();
  }
}

export async function startWorld(subdomain: string, start = '2027-03-01T06:00:00.000Z'): Promise<World> {
  const clock = new StillClock(new Date(start));
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
