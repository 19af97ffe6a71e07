/**
 * The Chat app's front-end: the member's chats with unread counts and favourites, and a live
 * message view (edits, deletes as tombstones, reactions, replies in a thread, mentions with
 * autocomplete, typing and presence, the read position). It runs in the workspace shell's
 * sandboxed frame and reaches the platform through the kit (docs/ui.md); one live socket carries
 * every chat's channel (docs/live-updates.md).
 */
import { mountApp } from '@wpk/ui';
import './chat-app.js';

await mountApp('chat-app');
