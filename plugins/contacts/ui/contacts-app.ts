import { LitElement, css, html, matchRoute, onRoute, sharedStyles } from '@wpk/ui';
import { appLink } from './api.js';
import './screens/contact.js';
import './screens/edit.js';
import './screens/import.js';
import './screens/list.js';
import './screens/suggestions.js';

const SECTIONS = [
  { path: '/', label: 'Contacts' },
  { path: '/suggestions', label: 'Suggestions' },
  { path: '/import', label: 'Import' },
];

/** The app's screens by path: the shell hands the path over (deep links) and keeps history. */
export class ContactsApp extends LitElement {
  static override properties = { path: { state: true } };
  declare path: string;
  private stop: (() => void) | null = null;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; max-width: 1100px; margin: 0 auto; padding: var(--wpk-space-3) var(--wpk-space-4) var(--wpk-space-6); }
      nav ul { display: flex; flex-wrap: wrap; gap: var(--wpk-space-4); list-style: none; margin: 0 0 var(--wpk-space-4); padding: 0; border-bottom: 1px solid var(--wpk-color-border); }
      nav a { display: inline-block; padding: var(--wpk-space-2) 0; text-decoration: none; color: var(--wpk-color-text); border-bottom: 3px solid transparent; }
      nav a[aria-current='page'] { border-bottom-color: var(--wpk-color-brand); font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    this.stop = onRoute((path) => {
      this.path = path;
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop?.();
  }

  private section(): string {
    const first = this.path.split(/[?#]/)[0].split('/')[1] ?? '';
    return first === 'suggestions' || first === 'import' ? `/${first}` : '/';
  }

  private screen() {
    if (matchRoute('/new', this.path)) return html`<contacts-edit></contacts-edit>`;
    const edit = matchRoute('/contacts/:contact_id/edit', this.path);
    if (edit) return html`<contacts-edit contact-id=${edit.contact_id}></contacts-edit>`;
    const contact = matchRoute('/contacts/:contact_id', this.path);
    if (contact) return html`<contacts-contact contact-id=${contact.contact_id}></contacts-contact>`;
    if (matchRoute('/suggestions', this.path)) return html`<contacts-suggestions></contacts-suggestions>`;
    if (matchRoute('/import', this.path)) return html`<contacts-import></contacts-import>`;
    return html`<contacts-list .path=${this.path}></contacts-list>`;
  }

  protected override render() {
    const current = this.section();
    return html`<nav aria-label="Contacts">
        <ul>
          ${SECTIONS.map((section) => html`<li>${appLink(section.path, section.label, section.path === current)}</li>`)}
        </ul>
      </nav>
      <main>${this.screen()}</main>`;
  }
}

customElements.define('contacts-app', ContactsApp);
