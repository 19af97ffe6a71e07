import { defineStateMachine } from '@wpk/sdk';
import { WAND_STATUSES } from '../models/index.js';

/** A wand's life (suspension is the platform's, not a move a member makes): any other move is a 409. */
export const wandMachine = defineStateMachine({
  name: 'wand',
  states: WAND_STATUSES,
  initial: 'draft',
  moves: {
    activate: { from: ['draft', 'paused'], to: 'active', event: 'core.wands.wand.activated' },
    pause: { from: ['active'], to: 'paused', event: 'core.wands.wand.paused' },
    suspend: { from: ['active', 'paused'], to: 'suspended', event: 'core.wands.wand.suspended' },
  },
});
