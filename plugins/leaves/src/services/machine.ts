import { defineStateMachine } from '@wpk/sdk';
import { REQUEST_STATUSES } from '../models/index.js';

/** A request's life; any other move is a 409 naming both states. */
export const requestMachine = defineStateMachine({
  name: 'request',
  states: REQUEST_STATUSES,
  initial: 'draft',
  moves: {
    submit: { from: ['draft'], to: 'submitted', event: 'core.leaves.request.submitted' },
    approve: { from: ['submitted'], to: 'approved', event: 'core.leaves.request.approved' },
    refuse: { from: ['submitted'], to: 'refused', event: 'core.leaves.request.refused' },
    withdraw: { from: ['submitted'], to: 'withdrawn', event: 'core.leaves.request.withdrawn' },
    cancel: { from: ['approved'], to: 'cancelled', event: 'core.leaves.request.cancelled' },
  },
});
