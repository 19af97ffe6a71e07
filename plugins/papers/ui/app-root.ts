import { AppRoot, html } from '@wpk/ui';

/** The app's root (the screens come with the editor). */
export class PapersApp extends AppRoot {
  protected readonly label = 'Papers';
  protected readonly sections = [{ path: '/', label: 'Papers' }];
  protected readonly screens = [{ path: '/', render: () => html`<p>Papers</p>` }];
}

customElements.define('papers-app', PapersApp);
