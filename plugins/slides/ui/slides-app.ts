import { AppRoot, html } from '@wpk/ui';
import './screens/decks.js';
import './screens/editor.js';
import './screens/presenter.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class SlidesApp extends AppRoot {
  protected readonly label = 'Slides';
  protected readonly sections = [{ path: '/', label: 'Decks' }];
  protected readonly screens = [
    { path: '/presentations/:presentation_id', render: ({ presentation_id }: Record<string, string>) => html`<slides-presenter presentation-id=${presentation_id}></slides-presenter>` },
    { path: '/decks/:deck_id', render: ({ deck_id }: Record<string, string>) => html`<slides-editor deck-id=${deck_id}></slides-editor>` },
    { path: '/', render: () => html`<slides-decks></slides-decks>` },
  ];
}

customElements.define('slides-app', SlidesApp);
