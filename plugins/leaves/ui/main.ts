/**
 * The Leaves app's front-end: a member's time off (balances, a form to ask for days off, their
 * requests), the requests waiting for their decision as a manager, and who is out. It runs in the
 * workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './leaves-app.js';

await mountApp('leaves-app');
