/**
 * The Tables front-end. It runs in the workspace shell, in a sandboxed frame, and reaches the
 * platform through @wpk/ui (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './tables-app.js';

await mountApp('tables-app');
