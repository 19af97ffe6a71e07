import { defineStateMachine } from '@wpk/sdk';

/**
 * A task is open until completed (`POST /tasks/{id}/complete`) and may be reopened; the status is
 * not a column: `completed_at` set means completed. Completing emits `task.completed`; reopening
 * emits `task.updated` (the service names the changed field).
 */
export const taskMachine = defineStateMachine({
  name: 'task',
  states: ['open', 'completed'] as const,
  initial: 'open',
  moves: {
    complete: { from: ['open'], to: 'completed', event: 'core.tasks.task.completed' },
    reopen: { from: ['completed'], to: 'open', event: 'core.tasks.task.updated' },
  },
});

/** A schedule is open until completed; completing is final and emits `schedule.completed`. */
export const scheduleMachine = defineStateMachine({
  name: 'schedule',
  states: ['open', 'completed'] as const,
  initial: 'open',
  moves: {
    complete: { from: ['open'], to: 'completed', event: 'core.tasks.schedule.completed' },
  },
});

/** The state of a row whose completion is a timestamp. */
export const stateOf = (row: { completed_at: Date | null }): 'open' | 'completed' => (row.completed_at ? 'completed' : 'open');
