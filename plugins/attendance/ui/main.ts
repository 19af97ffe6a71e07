/**
 * The Attendance app's front-end: the clock (in and out, with the device's position where the
 * location has a geofence; breaks), the member's timesheet, and the attendances with a manager's
 * corrections and missed attendances. It runs in the workspace shell's sandboxed frame and reaches
 * the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './attendance-app.js';

await mountApp('attendance-app');
