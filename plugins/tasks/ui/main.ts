/**
 * The Tasks app's front-end: boards with lanes (drag and drop, or the keyboard), the incubator,
 * and each task with its assignees and comments. It runs in the workspace shell's sandboxed frame
 * and reaches the platform through the kit (docs/ui.md): `startApp()` first, then render.
 */
import { mountApp } from '@wpk/ui';
import './tasks-app.js';

await mountApp('tasks-app');
