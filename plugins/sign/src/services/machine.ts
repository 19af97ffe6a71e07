import { defineStateMachine } from '@wpk/sdk';
import { ENVELOPE_STATUSES, RECIPIENT_STATUSES } from '../models/index.js';

/** An envelope's life; any other move is a 409 naming both states. */
export const envelopeMachine = defineStateMachine({
  name: 'envelope',
  states: ENVELOPE_STATUSES,
  initial: 'draft',
  moves: {
    send: { from: ['draft'], to: 'sent', event: 'core.sign.envelope.sent' },
    complete: { from: ['sent'], to: 'completed', event: 'core.sign.envelope.completed' },
    decline: { from: ['sent'], to: 'declined', event: 'core.sign.envelope.declined' },
    void: { from: ['draft', 'sent'], to: 'voided', event: 'core.sign.envelope.voided' },
    expire: { from: ['sent'], to: 'expired', event: 'core.sign.envelope.expired' },
  },
});

/** A recipient's life. */
export const recipientMachine = defineStateMachine({
  name: 'recipient',
  states: RECIPIENT_STATUSES,
  initial: 'pending',
  moves: {
    notify: { from: ['pending'], to: 'notified' },
    view: { from: ['notified'], to: 'viewed' },
    sign: { from: ['notified', 'viewed'], to: 'signed' },
    decline: { from: ['notified', 'viewed'], to: 'declined' },
  },
});
