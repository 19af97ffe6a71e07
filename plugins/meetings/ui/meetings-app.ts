import { AppRoot, html } from '@wpk/ui';
import './screens/list.js';
import './screens/meeting.js';
import './screens/schedule.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class MeetingsApp extends AppRoot {
  protected readonly label = 'Meetings';
  protected readonly sections = [
    { path: '/', label: 'Upcoming' },
    { path: '/new', label: 'Schedule' },
  ];
  protected readonly screens = [
    { path: '/meetings/:meeting_id', render: ({ meeting_id }: Record<string, string>) => html`<meetings-meeting meeting-id=${meeting_id}></meetings-meeting>` },
    { path: '/new', render: () => html`<meetings-schedule></meetings-schedule>` },
    { path: '/', render: () => html`<meetings-list></meetings-list>` },
  ];
}

customElements.define('meetings-app', MeetingsApp);
