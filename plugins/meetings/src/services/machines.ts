import { defineStateMachine } from '@wpk/sdk';
import { MEETING_STATUSES, PRESIGNATION_STATUSES } from '../models/index.js';

/** A meeting is scheduled until its organizer cancels it (`DELETE`); a cancelled meeting changes no more. */
export const meetingMachine = defineStateMachine({
  name: 'meeting',
  states: MEETING_STATUSES,
  initial: 'scheduled',
  moves: { cancel: { from: ['scheduled'], to: 'cancelled', event: 'core.meetings.meeting.cancelled' } },
});

/** An upload grant is open until it is completed (used once, its upload filed) or revoked. */
export const presignationMachine = defineStateMachine({
  name: 'presignation',
  states: PRESIGNATION_STATUSES,
  initial: 'open',
  moves: {
    complete: { from: ['open'], to: 'used', event: 'core.meetings.file.uploaded' },
    revoke: { from: ['open'], to: 'revoked', event: 'core.meetings.presignation.revoked' },
  },
});
