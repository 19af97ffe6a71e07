import { AppRoot, html, routeQuery } from '@wpk/ui';
import './screens/spaces.js';
import './screens/space.js';
import './screens/page.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class WikiApp extends AppRoot {
  protected readonly label = 'Wiki';
  protected readonly sections = [{ path: '/', label: 'Spaces' }];
  protected readonly screens = [
    // `?comment={id}`: a comment mention's link opens that thread.
    { path: '/pages/:page_id', render: ({ page_id }: Record<string, string>, path: string) => html`<wiki-page page-id=${page_id} .commentId=${routeQuery(path).get('comment')}></wiki-page>` },
    // A page as search (and a mention's link) names it (`url` of a search hit: the top bar's results, MRN chips).
    { path: '/wiki/pages/:page_id', render: ({ page_id }: Record<string, string>, path: string) => html`<wiki-page page-id=${page_id} .commentId=${routeQuery(path).get('comment')}></wiki-page>` },
    { path: '/spaces/:space_id', render: ({ space_id }: Record<string, string>) => html`<wiki-space space-id=${space_id}></wiki-space>` },
    { path: '/', render: () => html`<wiki-spaces></wiki-spaces>` },
  ];
}

customElements.define('wiki-app', WikiApp);
