import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { memberRemoved as onRemoval, subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { callFromChatRequest, callFromMeeting, cancelMeetingCall, memberRemoved } from '../services/sources.js';

/** Subscription handlers by action: calls asked for by chats and meetings, and a member who left the workspace leaving its calls. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.chat.call.requested': subscription('core.chat.call.requested', (event, ctx) => callFromChatRequest(ctx, event.payload, String(event.metadata.event_id ?? event.deliveryId ?? ''))),
  'core.meetings.meeting.scheduled': subscription('core.meetings.meeting.scheduled', (event, ctx) => callFromMeeting(ctx, event.payload)),
  'core.meetings.meeting.updated': subscription('core.meetings.meeting.updated', (event, ctx) => callFromMeeting(ctx, event.payload)),
  'core.meetings.meeting.cancelled': subscription('core.meetings.meeting.cancelled', (event, ctx) => cancelMeetingCall(ctx, event.payload)),
  'core.account.member.removed': onRemoval((ctx, { memberId }) => memberRemoved(ctx, memberId)),
};
