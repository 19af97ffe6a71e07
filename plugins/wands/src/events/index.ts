import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { memberRemoved, subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { onCatalogEvent, onCronDue, onScheduled, recheckGrants } from '../services/runs.js';

const catalog = <A extends 'core.crm.deal.won' | 'core.crm.deal.lost' | 'core.crm.lead.created' | 'core.tasks.task.created' | 'core.tasks.task.completed' | 'core.contacts.contact.created'>(action: A) =>
  subscription(action, (event, ctx) => onCatalogEvent(ctx, event));

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.crm.deal.won': catalog('core.crm.deal.won'),
  'core.crm.deal.lost': catalog('core.crm.deal.lost'),
  'core.crm.lead.created': catalog('core.crm.lead.created'),
  'core.tasks.task.created': catalog('core.tasks.task.created'),
  'core.tasks.task.completed': catalog('core.tasks.task.completed'),
  'core.contacts.contact.created': catalog('core.contacts.contact.created'),
  'core.wands.run.scheduled': subscription('core.wands.run.scheduled', (event, ctx) => onScheduled(ctx, event.payload)),
  'core.wands.cron.fired': subscription('core.wands.cron.fired', (event, ctx) => onCronDue(ctx, event.payload)),
  'core.account.member.removed': memberRemoved((ctx, removal) => recheckGrants(ctx, { owner_id: removal.memberId })),
  'core.account.role.updated': subscription('core.account.role.updated', (_event, ctx) => recheckGrants(ctx)),
  'core.account.member.role_changed': subscription('core.account.member.role_changed', (event, ctx) => recheckGrants(ctx, { owner_id: (event.payload as { member_id: string }).member_id })),
};
