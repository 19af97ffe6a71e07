/**
 * The Mail app's front-end: the webmail a member uses (their accounts and folders, messages by
 * conversation, reading, writing with drafts saved as they type and their signature, sending),
 * their settings (signatures, filters, blocked senders) and, for administrators, the workspace's
 * domains, mailboxes and groups. It runs in the workspace shell's sandboxed frame and reaches the
 * platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './mail-app.js';

await mountApp('mail-app');
