/**
 * What Attendance's tests need beyond `startWorld` of @wpk/testing: a clock held still, so an
 * instant a test sets is the instant the app reads however slow the machine is.
 */
import { startWorld, TestClock, type World } from '@wpk/testing';
import app from '../../src/index.js';

/** The harness clock, held still: it moves only when told (`advance`, `set`), never with real time. */
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

/** Attendance's world: the app installed in `subdomain`, on a still clock starting at `start`. */
export interface AttendanceWorld extends World {
  clock: StillClock;
  /** Sets the clock to `instant` (ISO), forward only. */
  at(instant: string): void;
}

export async function startAttendanceWorld(subdomain: string, start = '2027-03-01T06:00:00.000Z', others: { apps: string[]; firstParty: string[] } | null = null): Promise<AttendanceWorld> {
  const clock = new StillClock(new Date(start));
  const world = await startWorld({ app, subdomain, clock, ...(others ?? {}) });
  return Object.assign(world, { clock, at: (instant: string) => void clock.set(new Date(instant)) });
}
