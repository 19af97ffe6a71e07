/**
 * The Settings app's front-end: the one place an admin configures the workspace (the organisation
 * profile, locations, working calendars with their holidays, links to the platform's own admin
 * screens) and where each member sets their preferences. It runs in the workspace shell's
 * sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './settings-app.js';

await mountApp('settings-app');
