/**
 * The Sign app's front-end: the envelopes the member sends or signs, preparing one (a PDF, its
 * recipients in groups, their fields), sending it, and an envelope's status and audit trail. It
 * runs in the workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './sign-app.js';

await mountApp('sign-app');
