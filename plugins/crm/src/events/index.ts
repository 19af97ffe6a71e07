import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { dropCompany, dropContacts, keepCompany, keepContact, type CompanyPayload, type ContactPayload } from '../services/copies.js';
import { applySignOutcome } from '../services/quotes.js';
import { callEnded, mailSent, meetingScheduled, taskCompleted, taskCreated } from '../services/activities.js';

/** Another app's payload (validated by the platform against its app.json schema), as this app reads it. */
const read = <T>(event: { payload: object }): T => event.payload as unknown as T;

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.contacts.contact.created': subscription('core.contacts.contact.created', (event, ctx) => keepContact(ctx, read<ContactPayload>(event))),
  'core.contacts.contact.updated': subscription('core.contacts.contact.updated', (event, ctx) => keepContact(ctx, read<ContactPayload>(event))),
  'core.contacts.contact.deleted': subscription('core.contacts.contact.deleted', (event, ctx) => dropContacts(ctx, [read<{ contact_id: string }>(event).contact_id])),
  'core.contacts.contact.merged': subscription('core.contacts.contact.merged', (event, ctx) => dropContacts(ctx, read<{ merged_ids: string[] }>(event).merged_ids)),
  'core.companies.company.created': subscription('core.companies.company.created', (event, ctx) => keepCompany(ctx, read<CompanyPayload>(event))),
  'core.companies.company.updated': subscription('core.companies.company.updated', (event, ctx) => keepCompany(ctx, read<CompanyPayload>(event))),
  'core.companies.company.deleted': subscription('core.companies.company.deleted', (event, ctx) => dropCompany(ctx, read<{ company_id: string }>(event).company_id)),
  'core.calls.call.ended': subscription('core.calls.call.ended', (event, ctx) => callEnded(ctx, read(event))),
  'core.mail.message.sent': subscription('core.mail.message.sent', (event, ctx) => mailSent(ctx, read(event))),
  'core.tasks.task.created': subscription('core.tasks.task.created', (event, ctx) => taskCreated(ctx, read(event))),
  'core.tasks.task.completed': subscription('core.tasks.task.completed', (event, ctx) => taskCompleted(ctx, read(event))),
  'core.meetings.meeting.scheduled': subscription('core.meetings.meeting.scheduled', (event, ctx) => meetingScheduled(ctx, read(event))),
  'core.sign.envelope.completed': subscription('core.sign.envelope.completed', (event, ctx) => applySignOutcome(ctx, read(event), 'completed')),
  'core.sign.envelope.declined': subscription('core.sign.envelope.declined', (event, ctx) => applySignOutcome(ctx, read(event), 'declined')),
};
