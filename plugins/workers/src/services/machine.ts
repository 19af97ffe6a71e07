import { defineStateMachine } from '@wpk/sdk';
import { WORKER_STATUSES } from '../models/index.js';

/**
 * A worker's lifecycle: onboarding → active → offboarding → terminated, and a rehire takes a
 * terminated worker back to onboarding. Any other move is a 409 naming both states.
 */
export const workerMachine = defineStateMachine({
  name: 'worker',
  states: WORKER_STATUSES,
  initial: 'onboarding',
  moves: {
    activate: { from: ['onboarding'], to: 'active', event: 'core.workers.worker.activated' },
    offboard: { from: ['active'], to: 'offboarding', event: 'core.workers.worker.offboarding_started' },
    terminate: { from: ['offboarding'], to: 'terminated', event: 'core.workers.worker.terminated' },
    rehire: { from: ['terminated'], to: 'onboarding', event: 'core.workers.worker.rehired' },
  },
});
