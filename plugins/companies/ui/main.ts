/**
 * The Companies app's front-end: the workspace's companies (a searchable list, each company's page
 * with its people in Contacts, a form to add or edit one). It runs in the workspace shell's
 * sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './companies-app.js';

await mountApp('companies-app');
