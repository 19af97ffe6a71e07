/**
 * The Meetings app's front-end: a member's upcoming meetings, a form to schedule one with members
 * and guests, and a meeting's page (who comes, answering an invitation, the call's link; for the
 * organizer: inviting, removing and cancelling). It runs in the workspace shell's sandboxed frame
 * and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './meetings-app.js';

await mountApp('meetings-app');
