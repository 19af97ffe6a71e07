import { AppRoot, html } from '@wpk/ui';
import './screens/jobs.js';
import './screens/board.js';
import './screens/application.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class AtsApp extends AppRoot {
  protected readonly label = 'Recruiting';
  protected readonly sections = [{ path: '/', label: 'Jobs' }];
  protected readonly screens = [
    { path: '/jobs/:job_id', render: ({ job_id }: Record<string, string>) => html`<ats-board job-id=${job_id}></ats-board>` },
    { path: '/applications/:application_id', render: ({ application_id }: Record<string, string>) => html`<ats-application application-id=${application_id}></ats-application>` },
    { path: '/', render: () => html`<ats-jobs></ats-jobs>` },
  ];
}

customElements.define('ats-app', AtsApp);
