/**
 * The test platform's clock. It runs with real time from the instant it starts at, and moves
 * forward when told (`advance`), so a test can let a session or an API key expire, a throttle
 * window pass, or a delayed event become due, without waiting.
 */
export class TestClock {
  private offsetMs: number;

  /** A clock reading `start` now (default: the real time). */
  constructor(start?: Date) {
    this.offsetMs = start ? start.getTime() - Date.now() : 0;
  }

  /** The current instant by this clock. */
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves the clock forward by `ms` milliseconds, or by `{ days, hours, minutes, seconds }`. */
  advance(by: number | { days?: number; hours?: number; minutes?: number; seconds?: number }): Date {
    const ms = typeof by === 'number' ? by : (((by.days ?? 0) * 24 + (by.hours ?? 0)) * 60 + (by.minutes ?? 0)) * 60_000 + (by.seconds ?? 0) * 1000;
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('TestClock.advance: the clock only moves forward');
    this.offsetMs += ms;
    return this.now();
  }

  /** Sets the clock to `instant`, which must not lie in the clock's past (a clock going back would confuse ordering). */
  set(instant: Date): Date {
    const ms = instant.getTime() - this.now().getTime();
    if (ms < 0) throw new RangeError('TestClock.set: the clock only moves forward');
    return this.advance(ms);
  }
}
