import { AppRoot, html } from '@wpk/ui';
import './screens/attendance.js';
import './screens/attendances.js';
import './screens/clock.js';
import './screens/timesheet.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class AttendanceApp extends AppRoot {
  protected readonly label = 'Attendance';
  protected readonly sections = [
    { path: '/', label: 'Clock' },
    { path: '/timesheet', label: 'My timesheet' },
    { path: '/attendances', label: 'Attendances' },
  ];
  protected readonly screens = [
    { path: '/attendances/:attendance_id', render: ({ attendance_id }: Record<string, string>) => html`<attendance-attendance attendance-id=${attendance_id}></attendance-attendance>` },
    { path: '/attendances', render: () => html`<attendance-attendances></attendance-attendances>` },
    { path: '/timesheet', render: () => html`<attendance-timesheet></attendance-timesheet>` },
    { path: '/', render: () => html`<attendance-clock></attendance-clock>` },
  ];
}

customElements.define('attendance-app', AttendanceApp);
