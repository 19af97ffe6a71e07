import { css, type components } from '@wpk/ui';

export type Wand = components['schemas']['WandsWand'];
export type Run = components['schemas']['WandsRun'];

/** How a wand's state reads. */
export const WAND_STATUS: Record<string, string> = { draft: 'Draft', active: 'Active', paused: 'Paused', suspended: 'Suspended' };

/** How a run's state reads. */
export const RUN_STATUS: Record<string, string> = { running: 'Running', waiting: 'Waiting', completed: 'Completed', failed: 'Failed', stopped: 'Stopped' };

/** The catalog events a wand may start on, as people read them. */
export const EVENTS: Record<string, string> = {
  'core.crm.deal.won': 'A deal is won',
  'core.crm.deal.lost': 'A deal is lost',
  'core.crm.lead.created': 'A lead is created',
  'core.tasks.task.created': 'A task is created',
  'core.tasks.task.completed': 'A task is completed',
  'core.contacts.contact.created': 'A contact is created',
};

/** The cards' look. */
export const CARD_STYLES = css`
  ul.cards { list-style: none; padding: 0; display: grid; gap: var(--wpk-space-3); }
  ul.cards > li { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-2, 8px); padding: var(--wpk-space-3); overflow-wrap: anywhere; }
  .muted { color: var(--wpk-color-text-muted); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin-top: var(--wpk-space-2); }
  ol.log { padding-inline-start: var(--wpk-space-4); }
  code { overflow-wrap: anywhere; }
`;
