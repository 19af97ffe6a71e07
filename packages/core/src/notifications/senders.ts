import type { ParsedDelivery } from '@wpk/sdk';
import type { Logger } from 'pino';
import { conventionalHandlerPath, type EventBus } from '../events/index.js';
import { isHostPath } from '../tenancy/index.js';
import type { NotificationChannel } from './channels.js';
import type { NotificationInput, NotificationService, Recipient } from './notification-service.js';

/** A member's id from their MRN (`mrn:account:member:{id}`), or null for anything else. */
export function memberIdOf(mrn: unknown): string | null {
  const match = typeof mrn === 'string' ? /^mrn:account:member:([0-9a-f-]{36})$/i.exec(mrn) : null;
  return match ? match[1].toLowerCase() : null;
}

const text = (value: unknown, fallback = '') => (typeof value === 'string' && value.length > 0 ? value : fallback);
const ids = (list: unknown) => (Array.isArray(list) ? list.map(memberIdOf).filter((id): id is string => id !== null) : []);

/**
 * Where a person's browser opens a path of an app's front-end: the workspace shell's page
 * `/app/{app}{path}`, which hands `path` to the app (as a search hit's `url`). Null for anything
 * but an app path (`/...`, not `//...`).
 */
export function appPageLink(app: string, path: string): string | null {
  return isHostPath(path) ? `/app/${app}${path}` : null;
}

/** Where the owner sees an invoice: its row on the workspace's settings page (`/admin/settings`, the owner's invoices). */
export function invoiceLink(invoiceId: unknown): string {
  return `/admin/settings#invoice-${encodeURIComponent(text(invoiceId))}`;
}

/** What a sender needs to say who did it: the names of members by id. */
interface SenderContext {
  service: NotificationService;
  event: ParsedDelivery;
  /** A member's name (their e-mail when unnamed; `Someone` when unknown). */
  nameOf(memberId: string | null): Promise<string>;
}

/** One channel's sender: the event it listens to, who is told and what. */
export interface NotificationSender {
  action: string;
  channel: NotificationChannel;
  recipients(context: SenderContext): Promise<Recipient[]>;
  message(context: SenderContext): Promise<Omit<NotificationInput, 'channel' | 'sourceEventId'>>;
}

/** Everyone the event names except the one who did it. */
const named = (list: string[], actor: string | null) => list.filter((id) => id !== actor);

/**
 * The senders of every channel but `apps` (whose notifications the app endpoints send as the
 * requests arrive): each listens to an event of the catalog and tells the members it concerns.
 * An event an app does not emit (calls, while no calls app is loaded) simply never arrives.
 */
export const NOTIFICATION_SENDERS: readonly NotificationSender[] = [
  {
    action: 'core.member.mentioned',
    channel: 'mentions',
    recipients: ({ service, event }) => service.membersByIds(event.workspaceId, named(ids([event.payload.mentioned_mrn]), memberIdOf(event.payload.mentioner_mrn))),
    message: async ({ event, nameOf }) => ({
      kind: 'mentions.mentioned',
      title: `${await nameOf(memberIdOf(event.payload.mentioner_mrn))} mentioned you in ${text(event.payload.source, 'a message')}`,
      body: text(event.payload.preview),
      // The link is a path of the emitting app's front-end (the platform names the emitter).
      link: appPageLink(text(event.metadata.emitter, text(event.payload.source)), text(event.payload.link)),
      data: { source: event.payload.source, resource_mrn: event.payload.resource_mrn, mentioner_mrn: event.payload.mentioner_mrn },
    }),
  },
  {
    action: 'core.chat.chat.created',
    channel: 'chat',
    recipients: ({ service, event }) => service.membersByIds(event.workspaceId, named(ids(event.payload.participant_mrns), memberIdOf(event.payload.creator_mrn))),
    message: async ({ event, nameOf }) => ({
      kind: 'chat.added',
      title: `${await nameOf(memberIdOf(event.payload.creator_mrn))} added you to ${event.payload.type === 'direct' ? 'a direct chat' : `the ${text(event.payload.type, 'group')} ${text(event.payload.name, 'chat')}`}`,
      link: appPageLink('chat', `/chats/${text(event.payload.chat_id)}`),
      data: { chat_id: event.payload.chat_id },
    }),
  },
  {
    action: 'core.chat.participant.added',
    channel: 'chat',
    recipients: ({ service, event }) => service.membersByIds(event.workspaceId, named(ids([event.payload.member_mrn]), memberIdOf(event.payload.added_by_mrn))),
    message: async ({ event, nameOf }) => ({
      kind: 'chat.added',
      title: `${await nameOf(memberIdOf(event.payload.added_by_mrn))} added you to a chat`,
      link: appPageLink('chat', `/chats/${text(event.payload.chat_id)}`),
      data: { chat_id: event.payload.chat_id },
    }),
  },
  {
    action: 'core.chat.call.requested',
    channel: 'calls',
    recipients: ({ service, event }) => service.membersByIds(event.workspaceId, named(ids(event.payload.participant_mrns), memberIdOf(event.payload.requested_by))),
    message: async ({ event, nameOf }) => ({
      kind: 'calls.requested',
      title: `${await nameOf(memberIdOf(event.payload.requested_by))} is calling in ${text(event.payload.chat_name, 'a chat')} (${text(event.payload.mode, 'audio')})`,
      link: appPageLink('chat', `/chats/${text(event.payload.chat_id)}`),
      data: { chat_id: event.payload.chat_id, mode: event.payload.mode },
    }),
  },
  {
    action: 'core.calls.call.scheduled',
    channel: 'calls',
    recipients: ({ service, event }) => service.membersByIds(event.workspaceId, ids(event.payload.participant_mrns)),
    message: async ({ event }) => ({ kind: 'calls.scheduled', title: `Call scheduled: ${text(event.payload.title, 'a call')}`, body: `At ${text(event.payload.scheduled_at)}`, link: appPageLink('calls', `/calls/${text(event.payload.call_id)}`), data: { call_id: event.payload.call_id } }),
  },
  {
    action: 'core.calls.call.reminder',
    channel: 'calls',
    recipients: ({ service, event }) => service.membersByIds(event.workspaceId, ids(event.payload.participant_mrns)),
    message: async ({ event }) => ({ kind: 'calls.reminder', title: `Starting soon: ${text(event.payload.title, 'a call')}`, body: `At ${text(event.payload.scheduled_at)}`, link: appPageLink('calls', `/calls/${text(event.payload.call_id)}`), data: { call_id: event.payload.call_id } }),
  },
  {
    action: 'core.tasks.task.assigned',
    channel: 'tasks',
    recipients: ({ service, event }) => {
      const assignee = memberIdOf(event.payload.assignee_mrn);
      const by = memberIdOf(event.payload.assigned_by) ?? text(event.payload.assigned_by);
      return service.membersByIds(event.workspaceId, assignee && assignee !== by ? [assignee] : []);
    },
    message: async ({ event, nameOf }) => ({
      kind: 'tasks.assigned',
      title: `${await nameOf(memberIdOf(event.payload.assigned_by) ?? text(event.payload.assigned_by))} assigned you a task`,
      link: appPageLink('tasks', `/tasks/${text(event.payload.task_id)}`),
      data: { task_id: event.payload.task_id },
    }),
  },
  {
    action: 'core.billing.invoice.issued',
    channel: 'billing',
    recipients: ({ service, event }) => service.owners(event.workspaceId),
    message: async ({ event }) => ({
      kind: 'billing.invoice_issued',
      title: `New invoice: ${text(event.payload.amount)} ${text(event.payload.currency)}`,
      body: `A ${text(event.payload.kind)} invoice for ${text(event.payload.period_start).slice(0, 10)} to ${text(event.payload.period_end).slice(0, 10)} was issued; it is charged to the default card.`,
      link: invoiceLink(event.payload.invoice_id),
      data: { invoice_id: event.payload.invoice_id },
    }),
  },
  {
    action: 'core.billing.invoice.payment_failed',
    channel: 'billing',
    recipients: ({ service, event }) => service.owners(event.workspaceId),
    message: async ({ event }) => ({
      kind: 'billing.payment_failed',
      title: `Payment of ${text(event.payload.amount)} ${text(event.payload.currency)} failed`,
      body: `${text(event.payload.error)}${event.payload.next_attempt_at ? ` It will be retried on ${text(event.payload.next_attempt_at).slice(0, 10)}.` : ' No retry is left.'}`,
      link: invoiceLink(event.payload.invoice_id),
      data: { invoice_id: event.payload.invoice_id, attempt_count: event.payload.attempt_count },
    }),
  },
  {
    action: 'core.billing.dunning.exhausted',
    channel: 'billing',
    recipients: ({ service, event }) => service.owners(event.workspaceId),
    message: async ({ event }) => ({
      kind: 'billing.past_due',
      title: 'The workspace is past due',
      body: 'An invoice could not be charged after every retry. Add a card to pay it.',
      link: invoiceLink(event.payload.invoice_id),
      data: { invoice_id: event.payload.invoice_id },
    }),
  },
  {
    action: 'core.account.member.role_changed',
    channel: 'security',
    recipients: ({ service, event }) => service.membersByIds(event.workspaceId, named([text(event.payload.member_id)], text(event.payload.changed_by) || null)),
    message: async ({ event, nameOf }) => ({
      kind: 'security.role_changed',
      title: `Your role is now ${text(event.payload.to_role)}`,
      body: `${await nameOf(text(event.payload.changed_by) || null)} changed your platform role${event.payload.from_role ? ` from ${text(event.payload.from_role)}` : ''} to ${text(event.payload.to_role)}.`,
      link: null,
      data: { from_role: event.payload.from_role ?? null, to_role: event.payload.to_role },
    }),
  },
  {
    action: 'system.workspace.member.added',
    channel: 'system',
    recipients: async ({ service, event }) => (await service.ownersAndAdmins(event.workspaceId)).filter((recipient) => recipient.member_id !== event.payload.member_id).map(({ member_id, email, name }) => ({ member_id, email, name })),
    message: async ({ event, nameOf }) => ({
      kind: 'system.member_joined',
      title: `${await nameOf(text(event.payload.member_id))} joined the workspace`,
      body: `As ${text(event.payload.role, 'member')}.`,
      link: null,
      data: { member_id: event.payload.member_id },
    }),
  },
  {
    action: 'core.wiki.page.review_requested',
    channel: 'system',
    recipients: ({ service, event }) => {
      const owner = memberIdOf(event.payload.owner_mrn);
      return service.membersByIds(event.workspaceId, owner ? [owner] : []);
    },
    message: async ({ event }) => ({
      kind: 'wiki.review_requested',
      title: `Please review ${text(event.payload.title, 'a page')}`,
      body: event.payload.reason === 'watched' ? `Something it describes changed (${text(event.payload.watched_mrn)}): verify it again.` : 'Its review interval has passed: verify it again.',
      link: appPageLink('wiki', `/pages/${text(event.payload.page_id)}`),
      data: { page_id: event.payload.page_id },
    }),
  },
];

/**
 * Subscribes the runtime to every sender's event (delivered like any other: signed, retried).
 * A delivery notifies, then sends the mails and pushes; the event's id makes a redelivery a no-op.
 */
export function installNotificationSenders(events: EventBus, service: NotificationService, logger: Logger, senders: readonly NotificationSender[] = NOTIFICATION_SENDERS): void {
  events.addRuntimeSubscriptions(
    senders.map((sender) => ({
      action: sender.action,
      handler: `${conventionalHandlerPath(sender.action)}/notify-${sender.channel}`,
      max_retries: 5,
      run: async (event: ParsedDelivery) => {
        const names = new Map<string, string>();
        const context: SenderContext = {
          service,
          event,
          async nameOf(memberId) {
            if (!memberId) return 'Someone';
            if (!names.has(memberId)) {
              const [member] = await service.membersByIds(event.workspaceId, [memberId]);
              names.set(memberId, member ? member.name || member.email : 'Someone');
            }
            return names.get(memberId)!;
          },
        };
        const recipients = await context.service.membersByIds(event.workspaceId, (await sender.recipients(context)).map((recipient) => recipient.member_id));
        if (recipients.length === 0) return;
        const eventId = typeof event.metadata.event_id === 'string' ? event.metadata.event_id : event.deliveryId;
        const pending = await service.notify(event.workspaceId, recipients, { ...(await sender.message(context)), channel: sender.channel, sourceEventId: eventId });
        await service.deliver(pending);
        logger.debug({ workspace_id: event.workspaceId, action: event.action, channel: sender.channel, recipients: recipients.length }, 'notification sent for an event');
      },
    })),
  );
}
