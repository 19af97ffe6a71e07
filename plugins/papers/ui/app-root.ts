import { AppRoot, html, routeQuery } from '@wpk/ui';
import './screens/list.js';
import './screens/paper.js';

/** The app's screens by path: the list of papers, and a paper open in the editor. */
export class PapersApp extends AppRoot {
  protected readonly label = 'Papers';
  protected readonly sections = [{ path: '/', label: 'Papers' }];
  protected readonly screens = [
    // `?comment={id}`: a comment mention's link opens that thread.
    { path: '/papers/:paper_id', render: (params: Record<string, string>, path: string) => html`<papers-paper .paperId=${params.paper_id} .commentId=${routeQuery(path).get('comment')}></papers-paper>` },
    { path: '/', render: () => html`<papers-list></papers-list>` },
  ];
}

customElements.define('papers-app', PapersApp);
