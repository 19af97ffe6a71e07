import { defineStateMachine } from '@wpk/sdk';
import { CALL_STATUSES, RECORDING_STATUSES } from '../models/index.js';

/**
 * A call waits until its first participant joins (it starts), then is under way until the last
 * leaves or a host ends it; a call nobody joined yet is cancelled instead. Ended and cancelled
 * are final.
 */
export const callMachine = defineStateMachine({
  name: 'call',
  states: CALL_STATUSES,
  initial: 'waiting',
  moves: {
    start: { from: ['waiting'], to: 'active', event: 'core.calls.call.started' },
    end: { from: ['active'], to: 'ended', event: 'core.calls.call.ended' },
    cancel: { from: ['waiting'], to: 'cancelled' },
  },
});

/** A recording uploads until its recorder (or a host) completes it (`recording.ready`) or aborts it. */
export const recordingMachine = defineStateMachine({
  name: 'recording',
  states: RECORDING_STATUSES,
  initial: 'uploading',
  moves: {
    complete: { from: ['uploading'], to: 'ready', event: 'core.calls.recording.ready' },
    abort: { from: ['uploading'], to: 'aborted' },
  },
});
