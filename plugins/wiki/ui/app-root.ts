import { AppRoot, html } from '@wpk/ui';
import './items-screen.js';

/**
 * The app's root: its navigation and its screens by path. `AppRoot` follows the route the shell
 * hands over (deep links to `/app/ext.local.wiki/...`, Back and Forward); the first screen whose path
 * matches renders, the last one also renders any other path. Add a screen: a custom element, a
 * line in `screens` (`/items/:item_id` gives `{ item_id }`), and a section if it is a tab.
 */
export class WikiApp extends AppRoot {
  protected readonly label = 'Wiki';
  protected readonly sections = [{ path: '/', label: 'Items' }];
  protected readonly screens = [{ path: '/', render: () => html`<wiki-items></wiki-items>` }];
}

customElements.define('wiki-app', WikiApp);
