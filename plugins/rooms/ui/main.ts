/**
 * The Rooms app's front-end: the rooms the member sees, a room's page (its members and who is in
 * its session now, Join). In the shell's sandboxed frame it reaches the platform through the kit
 * (docs/ui.md); the same bundle, opened top-level as the same-origin page `join.html?room={id}`,
 * is the room's session itself (`<wpk-call>`: browsers give no sandboxed frame a camera).
 */
import { mountApp } from '@wpk/ui';
import './rooms-app.js';

if (window.top === window && location.pathname.endsWith('/join.html')) {
  (await import('./join.js')).mountRoomsJoinPage();
} else {
  await mountApp('rooms-app');
}
