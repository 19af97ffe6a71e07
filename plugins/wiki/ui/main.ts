/**
 * Wiki's front-end. It runs in the workspace shell, in a sandboxed frame, and reaches the
 * platform through @wpk/ui (docs/ui.md): `mountApp` opens the bridge to the shell (an API client
 * that carries this app's token) and puts the app's root on the page; `wpk ui build` bundles this
 * folder (the platform builds it on first use in development).
 */
import { mountApp } from '@wpk/ui';
import './app-root.js';

await mountApp('wiki-app');
