import type { Message } from '../models/index.js';
import type { ChatBaseContext } from '../kit.js';
import { presentMessage } from './present.js';

/**
 * Live channels of the app (docs/live-updates.md): `chat/chats/{chat_id}` carries a chat's
 * changes to its participants; `chat/members/{member_id}` carries a member's own news (a mention,
 * a chat they were added to, their unread counts moving).
 */
export function publishToChat(ctx: ChatBaseContext, chatId: string, type: string, data: unknown, audience: string[], revoke: string[] = []): void {
  ctx.live.publish(`chats/${chatId}`, type, data, { audience, revoke });
}

/** A member's own channel. */
export function publishToMember(ctx: ChatBaseContext, memberId: string, type: string, data: unknown): void {
  ctx.live.publish(`members/${memberId}`, type, data);
}

/** A message change, as the chat's channel carries it. */
export function publishMessage(ctx: ChatBaseContext, type: 'message.sent' | 'message.edited' | 'message.deleted', message: Message, audience: string[]): void {
  publishToChat(ctx, message.chat_id, type, presentMessage(message, []), audience);
}
