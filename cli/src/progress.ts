import type { MigrationProgress, ReindexProgress } from '@wpk/core';

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
    stream.write(`${stream.isTTY ? '\r\x1b[K' : ''}reindexed ${label}: ${documents} document${documents === 1 ? '' : 's'} (${seconds(step.ms ?? 0)})\n`);
  };
}
