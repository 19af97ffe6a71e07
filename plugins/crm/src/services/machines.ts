import { defineStateMachine } from '@wpk/sdk';
import { DEAL_STATUSES, LEAD_STATUSES, QUOTE_STATUSES } from '../models/index.js';

/** A lead's life; qualifying goes through POST /crm/leads/{lead_id}/qualify (it makes a deal). */
export const leadMachine = defineStateMachine({
  name: 'lead',
  states: LEAD_STATUSES,
  initial: 'new',
  moves: {
    contact: { from: ['new'], to: 'contacted' },
    qualify: { from: ['new', 'contacted'], to: 'qualified', event: 'core.crm.lead.qualified' },
    disqualify: { from: ['new', 'contacted'], to: 'disqualified', event: 'core.crm.lead.disqualified' },
  },
});

/** A deal's life: won or lost (with a reason), and reopened. */
export const dealMachine = defineStateMachine({
  name: 'deal',
  states: DEAL_STATUSES,
  initial: 'open',
  moves: {
    win: { from: ['open'], to: 'won', event: 'core.crm.deal.won' },
    lose: { from: ['open'], to: 'lost', event: 'core.crm.deal.lost' },
    reopen: { from: ['won', 'lost'], to: 'open' },
  },
});

/** A quote's life. */
export const quoteMachine = defineStateMachine({
  name: 'quote',
  states: QUOTE_STATUSES,
  initial: 'draft',
  moves: {
    send: { from: ['draft'], to: 'sent', event: 'core.crm.quote.sent' },
    accept: { from: ['sent'], to: 'accepted', event: 'core.crm.quote.accepted' },
    decline: { from: ['sent'], to: 'declined' },
    expire: { from: ['sent'], to: 'expired' },
  },
});
