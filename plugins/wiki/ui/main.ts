/**
 * The Wiki app's front-end: spaces, a space's page tree, a page written live in the shared
 * collaborative editor (or rewritten as Markdown), its links, backlinks and verification. It runs
 * in the workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './wiki-app.js';

await mountApp('wiki-app');
