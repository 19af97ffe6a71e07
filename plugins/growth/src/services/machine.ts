import { defineStateMachine } from '@wpk/sdk';
import { CYCLE_STATUSES } from '../models/index.js';

/**
 * A review cycle, one step at a time: draft → self_review → peer_review → manager_review →
 * calibration → released → closed. Opening (draft → self_review) creates the reviews; releasing
 * computes the final scores and emits `review.released` per review. Any other move is a 409.
 */
export const cycleMachine = defineStateMachine({
  name: 'cycle',
  states: CYCLE_STATUSES,
  initial: 'draft',
  moves: {
    open: { from: ['draft'], to: 'self_review' },
    peers: { from: ['self_review'], to: 'peer_review' },
    managers: { from: ['peer_review'], to: 'manager_review' },
    calibrate: { from: ['manager_review'], to: 'calibration' },
    release: { from: ['calibration'], to: 'released' },
    close: { from: ['released'], to: 'closed' },
  },
});
