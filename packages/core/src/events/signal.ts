/**
 * A wake-up flag a loop sleeps on: `wait(ms)` resolves when `notify()` is called or after `ms`,
 * whichever comes first. A notify that arrives while nobody waits is remembered, so no wake-up is
 * lost between a loop's last check and its next sleep.
 */
export class Signal {
  private pending = false;
  private waiter: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  notify(): void {
    if (this.waiter) this.release();
    else this.pending = true;
  }

  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.timer = setTimeout(() => this.release(), Math.max(0, ms));
    });
  }

  private release(): void {
    const waiter = this.waiter;
    this.waiter = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = false;
    waiter?.();
  }
}
