import { LitElement, css, html, matchRoute, onRoute, sharedStyles } from '@wpk/ui';
import { appLink } from './api.js';
import './screens/attendance.js';
import './screens/attendances.js';
import './screens/clock.js';
import './screens/timesheet.js';

const SECTIONS = [
  { path: '/', label: 'Clock' },
  { path: '/timesheet', label: 'My timesheet' },
  { path: '/attendances', label: 'Attendances' },
];

/** The app's screens by path: the shell hands the path over (deep links) and keeps history. */
export class AttendanceApp extends LitElement {
  static override properties = { path: { state: true } };
  declare path: string;
  private stop: (() => void) | null = null;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; max-width: 1100px; margin: 0 auto; padding: var(--wpk-space-3) var(--wpk-space-4) var(--wpk-space-6); }
      nav ul { display: flex; flex-wrap: wrap; gap: var(--wpk-space-4); list-style: none; margin: 0 0 var(--wpk-space-4); padding: 0; border-bottom: 1px solid var(--wpk-color-border); }
      nav a { display: inline-block; padding: var(--wpk-space-2) 0; text-decoration: none; color: var(--wpk-color-text); border-bottom: 3px solid transparent; }
      nav a[aria-current='page'] { border-bottom-color: var(--wpk-color-brand); font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    this.stop = onRoute((path) => {
      this.path = path;
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop?.();
  }

  private screen() {
    const attendance = matchRoute('/attendances/:attendance_id', this.path);
    if (attendance) return html`<attendance-attendance attendance-id=${attendance.attendance_id}></attendance-attendance>`;
    if (matchRoute('/attendances', this.path)) return html`<attendance-attendances></attendance-attendances>`;
    if (matchRoute('/timesheet', this.path)) return html`<attendance-timesheet></attendance-timesheet>`;
    return html`<attendance-clock></attendance-clock>`;
  }

  protected override render() {
    const first = `/${this.path.split(/[?#]/)[0].split('/')[1] ?? ''}`;
    const current = first === '/timesheet' || first === '/attendances' ? first : '/';
    return html`<nav aria-label="Attendance">
        <ul>
          ${SECTIONS.map((section) => html`<li>${appLink(section.path, section.label, section.path === current)}</li>`)}
        </ul>
      </nav>
      <main>${this.screen()}</main>`;
  }
}

customElements.define('attendance-app', AttendanceApp);
