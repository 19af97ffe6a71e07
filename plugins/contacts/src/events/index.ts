import type { SubscriptionHandler, SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { applyCompanyEvent } from '../services/company-copies.js';
import { forgetMailbox, onMailReceived, onMailSent, rememberMailbox } from '../services/mail-suggestions.js';
import { forgetMember, recordInteraction, type InteractionSource } from '../services/suggestions.js';

/** A handler that serves several of the actions the app receives. */
type Handler = SubscriptionHandler<Models, AppTypes, keyof AppTypes['receives'] & string>;

/** `core.companies.company.*`: the app's copy of company names (see applyCompanyEvent). A malformed payload is logged and acknowledged. */
const companyHandler =
  (deleted: boolean): Handler =>
  async (event, ctx) => {
    const outcome = await applyCompanyEvent(ctx, event.payload as Record<string, unknown>, deleted);
    if (outcome === 'malformed') ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'company event without company_id, name or revision: ignored');
  };

/** An interaction event: who took part, read from the payload (the catalog's fields). */
const interactionHandler =
  (source: InteractionSource, participants: (payload: Record<string, unknown>) => unknown[]): Handler =>
  async (event, ctx) => {
    await recordInteraction(ctx, event, source, participants(event.payload as Record<string, unknown>));
  };

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Subscription handlers by action; each action is declared in app.json's subscriptions. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.companies.company.created': companyHandler(false),
  'core.companies.company.updated': companyHandler(false),
  'core.companies.company.deleted': companyHandler(true),
  // Catalog: core.chat.chat.created {chat_id, type, name, creator_mrn, participant_mrns}.
  'core.chat.chat.created': interactionHandler('chat', (payload) => [payload.creator_mrn, ...list(payload.participant_mrns)]),
  // Catalog: core.chat.participant.added {chat_id, member_mrn, added_by_mrn}.
  'core.chat.participant.added': interactionHandler('chat', (payload) => [payload.member_mrn, payload.added_by_mrn]),
  // Catalog: core.calls.call.started {call_id, join_url, title, mode, source_mrn, participant_mrns, creator_mrn}.
  'core.calls.call.started': interactionHandler('call', (payload) => [payload.creator_mrn, ...list(payload.participant_mrns)]),
  // The Mail app's events (plugins/mail/app.json): mailboxes tell whose mail is whose; messages carry the addresses.
  'core.mail.mailbox.created': async (event, ctx) => {
    if (!(await rememberMailbox(ctx, event.payload as Record<string, unknown>))) ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'mailbox event without mailbox_id or address: ignored');
  },
  'core.mail.mailbox.assigned': async (event, ctx) => {
    if (!(await rememberMailbox(ctx, event.payload as Record<string, unknown>))) ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'mailbox event without mailbox_id or address: ignored');
  },
  'core.mail.mailbox.deleted': async (event, ctx) => {
    await forgetMailbox(ctx, event.payload as Record<string, unknown>);
  },
  'core.mail.message.received': async (event, ctx) => {
    await onMailReceived(ctx, event as never);
  },
  'core.mail.message.sent': async (event, ctx) => {
    await onMailSent(ctx, event as never);
  },
  // The platform's catalog: core.account.member.removed {member_id, removed_by}.
  'core.account.member.removed': async (event, ctx) => {
    await forgetMember(ctx, (event.payload as Record<string, unknown>).member_id);
  },
};
