/**
 * The CRM app's front-end: the pipeline board (deals as cards, moved across stages by drag and
 * drop or from the keyboard), a deal's detail with its lines and quotes, leads and products. It
 * runs in the workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './crm-app.js';

await mountApp('crm-app');
