import { AppRoot, html, listScreen } from '@wpk/ui';
import './screens/competencies.js';
import './screens/cycles.js';
import './screens/goals.js';

/** The app's screens by path (AppRoot follows the shell's route: deep links, Back and Forward). */
export class GrowthApp extends AppRoot {
  protected readonly label = 'Growth';
  protected readonly sections = [
    { path: '/', label: 'Goals' },
    { path: '/cycles', label: 'Review cycles' },
    { path: '/competencies', label: 'Competencies' },
  ];
  protected readonly screens = [
    { path: '/cycles', render: () => html`<growth-cycles></growth-cycles>` },
    { path: '/competencies', render: () => html`<growth-competencies></growth-competencies>` },
    listScreen('/', 'growth-goals'),
  ];
}

customElements.define('growth-app', GrowthApp);
