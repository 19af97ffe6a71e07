import { AppRoot, html, listScreen } from '@wpk/ui';
import './screens/check-ins.js';
import './screens/competencies.js';
import './screens/conversations.js';
import './screens/cycles.js';
import './screens/goals.js';
import './screens/reviews.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class GrowthApp extends AppRoot {
  protected readonly label = 'Growth';
  protected readonly sections = [
    { path: '/', label: 'Goals' },
    { path: '/check-ins', label: 'Check-ins' },
    { path: '/reviews', label: 'Reviews' },
    { path: '/conversations', label: 'Conversations' },
    { path: '/cycles', label: 'Review cycles' },
    { path: '/competencies', label: 'Competencies' },
  ];
  protected readonly screens = [
    { path: '/check-ins', render: () => html`<growth-check-ins></growth-check-ins>` },
    { path: '/reviews', render: () => html`<growth-reviews></growth-reviews>` },
    { path: '/conversations', render: () => html`<growth-conversations></growth-conversations>` },
    { path: '/cycles', render: () => html`<growth-cycles></growth-cycles>` },
    { path: '/competencies', render: () => html`<growth-competencies></growth-competencies>` },
    listScreen('/', 'growth-goals'),
  ];
}

customElements.define('growth-app', GrowthApp);
