import { AppRoot, html, kit } from '@wpk/ui';
import './screens/calendar.js';
import './screens/calendars.js';
import './screens/configuration.js';
import './screens/documents.js';
import './screens/explain.js';
import './screens/locations.js';

const isAdmin = () => kit().member.platform_role !== 'member';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class SettingsApp extends AppRoot {
  protected readonly label = 'Settings';
  protected readonly sections = [
    { path: '/', label: 'Organisation', visible: isAdmin },
    { path: '/locations', label: 'Locations' },
    { path: '/calendars', label: 'Calendars' },
    { path: '/preferences', label: 'My preferences' },
    { path: '/explain', label: 'Explain access', visible: isAdmin },
    { path: '/configuration', label: 'Export / import', visible: isAdmin },
  ];
  protected readonly screens = [
    { path: '/locations/:location_id', render: ({ location_id }: Record<string, string>) => html`<settings-location .locationId=${location_id}></settings-location>` },
    { path: '/locations', render: () => html`<settings-locations></settings-locations>` },
    { path: '/calendars/:calendar_id', render: ({ calendar_id }: Record<string, string>) => html`<settings-calendar .calendarId=${calendar_id}></settings-calendar>` },
    { path: '/calendars', render: () => html`<settings-calendars></settings-calendars>` },
    { path: '/preferences', render: () => html`<settings-preferences></settings-preferences>` },
    { path: '/explain', render: () => html`<settings-explain></settings-explain>` },
    { path: '/configuration', render: () => html`<settings-configuration></settings-configuration>` },
    { path: '/', render: () => html`<settings-organization></settings-organization>` },
  ];
}

customElements.define('settings-app', SettingsApp);
