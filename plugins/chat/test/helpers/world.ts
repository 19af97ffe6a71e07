/**
 * What Chat's tests need beyond `startWorld` of @wpk/testing: the app's keys (`world.member()`
 * holds them all) and, among the events taken, the platform's `core.member.mentioned` that the
 * app emits beside its own. Sockets: `openSocket` of @wpk/testing.
 */
import { startWorld, type World } from '@wpk/testing';
import app from '../../src/index.js';

export const ALL_KEYS = ['chat.chats.create', 'chat.chats.read', 'chat.messages.read', 'chat.messages.send', 'chat.lists.edit', 'chat.calls.create'];

export async function startChatWorld(subdomain: string): Promise<World> {
  const world = await startWorld({ app, subdomain, memberKeys: ALL_KEYS });
  const taken = (action: string) => action.startsWith('core.chat.') || action === 'core.member.mentioned';
  world.takeEvents = () => world.platform.takeEvents().filter((event) => taken(event.action)).map((event) => ({ action: event.action, payload: event.payload }));
  return world;
}
