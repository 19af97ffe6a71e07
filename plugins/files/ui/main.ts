/**
 * The Files app's front-end: the member's drive (folders with breadcrumbs, upload with progress,
 * rename, move, trash) and the trash with restore. It runs in the workspace shell's sandboxed frame
 * and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './files-app.js';

await mountApp('files-app');
