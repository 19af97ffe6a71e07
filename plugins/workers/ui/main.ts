/**
 * The Workers app's front-end: the HR directory (a searchable list with filters, each worker's
 * page with their history and reports and the lifecycle's next step, a form to add or edit one),
 * the departments and the org chart. It runs in the workspace shell's sandboxed frame and reaches
 * the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './workers-app.js';

await mountApp('workers-app');
