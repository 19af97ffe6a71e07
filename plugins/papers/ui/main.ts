/**
 * The Papers app's front-end: the list of one's papers by folder, and a paper open in the
 * collaborative editor (`@wpk/ui/editor`, loaded when a paper is opened) with carets and who is
 * here. It runs in the workspace shell's sandboxed frame (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './app-root.js';

await mountApp('papers-app');
