/**
 * The Calls app's front-end: the member's calls, starting one with members chosen in the shell's
 * picker, a call's page (who is in it, Join, End for its hosts). In the shell's sandboxed frame it
 * reaches the platform through the kit (docs/ui.md); the same bundle, opened top-level as the
 * same-origin page `join.html?call={id}`, is the call itself (`<wpk-call>`: browsers give no
 * sandboxed frame a camera).
 */
import { mountApp } from '@wpk/ui';
import './calls-app.js';

if (window.top === window && location.pathname.endsWith('/join.html')) {
  (await import('./join.js')).mountCallsJoinPage();
} else {
  await mountApp('calls-app');
}
