import { AppRoot, html } from '@wpk/ui';
import './screens/list.js';
import './screens/wand.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class WandsApp extends AppRoot {
  protected readonly label = 'Wands';
  protected readonly sections = [{ path: '/', label: 'My wands' }];
  protected readonly screens = [
    { path: '/wands/:wand_id', render: (params: Record<string, string>) => html`<wands-wand .wandId=${params.wand_id}></wands-wand>` },
    { path: '/', render: () => html`<wands-list></wands-list>` },
  ];
}

customElements.define('wands-app', WandsApp);
