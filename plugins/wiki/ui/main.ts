/**
 * The Wiki app's front-end: spaces, a space's page tree, a page read and edited as Markdown (a
 * rich editor arrives with the shared editing stack), its backlinks and its verification. It runs
 * in the workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './wiki-app.js';

await mountApp('wiki-app');
