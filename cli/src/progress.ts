import type { MigrationProgress } from '@wpk/core';

/** Where progress goes: a TTY gets one live line per step, anything else plain lines. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Reports migrations as they run (a fresh database takes many seconds). On a TTY the step in
 * progress shows as `applying schema/name ...`, replaced by `applied schema/name (1.2 s)` when it
 * ends; otherwise only the `applied` lines are written, one per step, as each ends. Null (for
 * `--json`) reports nothing.
 */
export function migrationReporter(stream: ProgressStream | null): ((step: MigrationProgress) => void) | undefined {
  if (!stream) return undefined;
  return (step) => {
    const label = `${step.schema}/${step.name}`;
    if (step.phase === 'started') {
      if (stream.isTTY) stream.write(`applying ${label} ...`);
      return;
    }
    stream.write(`${stream.isTTY ? '\r\x1b[K' : ''}applied ${label} (${seconds(step.ms)})\n`);
  };
}
