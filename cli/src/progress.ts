import type { MigrationProgress, ReindexProgress } from '@wpk/core';

/** Where progress goes: a TTY gets a live line per step, anything else one line per finished step. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const CLEAR = '\r\x1b[K';

/**
 * Reports the steps of a long command (`wpk dev`, `wpk start`, `wpk migrate`) so no wait is
 * silent. On a TTY the step in progress shows as `loading apps ...` and is replaced by its result,
 * `loaded 13 apps (7.1 s)`; `update` rewrites the live line (the migration counter). Elsewhere
 * (a log, CI) only the result lines are written. Null reports nothing (`--json`).
 */
export class StepReporter {
  private live = '';

  constructor(private readonly stream: ProgressStream | null) {}

  /** Runs `work` as a step: `label` while it runs, then `done(result)` with the time it took. */
  async step<T>(label: string, work: () => Promise<T>, done: (result: T) => string): Promise<T> {
    const since = performance.now();
    this.update(`${label} ...`);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      this.end(`${label}: failed`);
      throw error;
    }
    this.end(`${done(result)} (${seconds(performance.now() - since)})`);
    return result;
  }

  /** Replaces the live line (on a TTY only). */
  update(text: string): void {
    if (!this.stream?.isTTY) return;
    this.stream.write(`${CLEAR}${text}`);
    this.live = text;
  }

  /** Removes the live line (on a TTY), when the result goes elsewhere. */
  clear(): void {
    if (this.live && this.stream?.isTTY) this.stream.write(CLEAR);
    this.live = '';
  }

  /** Writes a finished step's line, in place of the live one on a TTY. */
  end(text: string): void {
    if (!this.stream) return;
    this.stream.write(`${this.live && this.stream.isTTY ? CLEAR : ''}${text}\n`);
    this.live = '';
  }
}

/**
 * The migration counter for a run of `total` pending migrations: on a TTY the live line reads
 * `migrating 41/87 app_tasks/0001-create-tasks-tables`; elsewhere nothing per migration (the
 * step's one summary line, `migrationSummary`, says what ran).
 */
export function migrationCounter(reporter: StepReporter, total: number): (step: MigrationProgress) => void {
  let done = 0;
  return (step) => {
    if (step.phase === 'started') reporter.update(`migrating ${done + 1}/${total} ${step.schema}/${step.name}`);
    else done++;
  };
}

/** `applied 40 migrations in 14 schemas`, or `nothing to migrate: the database is up to date` when none ran. */
export function migrationSummary(applied: Record<string, string[]>): string {
  const schemas = Object.values(applied).filter((names) => names.length > 0);
  const total = schemas.reduce((sum, names) => sum + names.length, 0);
  if (total === 0) return 'nothing to migrate: the database is up to date';
  return `applied ${total} migration${total === 1 ? '' : 's'} in ${schemas.length} schema${schemas.length === 1 ? '' : 's'}`;
}

/**
 * Reports a search re-index as it runs: on a TTY `reindexing app/type in workspace ...`, replaced
 * by `reindexed app/type in workspace: N documents (1.2 s)` when the step ends; otherwise only the
 * `reindexed` lines. Null (for `--json`) reports nothing.
 */
export function reindexReporter(stream: ProgressStream | null): ((step: ReindexProgress) => void) | undefined {
  if (!stream) return undefined;
  return (step) => {
    const label = `${step.app}/${step.type} in ${step.workspace.subdomain}`;
    if (step.phase === 'started') {
      if (stream.isTTY) stream.write(`reindexing ${label} ...`);
      return;
    }
    const documents = step.documents ?? 0;
    stream.write(`${stream.isTTY ? CLEAR : ''}reindexed ${label}: ${documents} document${documents === 1 ? '' : 's'} (${seconds(step.ms ?? 0)})\n`);
  };
}
