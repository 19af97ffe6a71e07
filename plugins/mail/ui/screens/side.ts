import { appLink, css, html, type TemplateResult } from '@wpk/ui';
import { FOLDERS, type Account } from '../api.js';

/** The side list: each account with its folders (the current one marked), and a Compose link. */
export function sideList(accounts: Account[], accountId: string | null, folder: string | null): TemplateResult {
  return html`<nav class="side" aria-label="Mailboxes">
    <p class="compose">${appLink(accountId ? `/compose?account=${accountId}` : '/compose', 'Compose')}</p>
    ${accounts.map((account) => html`<h2 class="account">${account.display_name || account.address}<span class="muted address">${account.address}</span></h2>
      <ul class="plain folders" aria-label=${`Folders of ${account.address}`}>
        ${FOLDERS.map((entry) => html`<li>${appLink(`/accounts/${account.id}/${entry.name}`, entry.label, account.id === accountId && entry.name === folder)}</li>`)}
      </ul>`)}
  </nav>`;
}

/** The two columns (side list, then the screen's own), one column on a phone. */
export const LAYOUT_STYLES = css`
  .layout { display: grid; grid-template-columns: minmax(12rem, 16rem) minmax(0, 1fr); gap: var(--wpk-space-4); align-items: start; }
  @media (max-width: 700px) { .layout { grid-template-columns: minmax(0, 1fr); } }
  .side h2.account { font-size: var(--wpk-font-size-m, 1rem); margin: var(--wpk-space-3) 0 var(--wpk-space-1); overflow-wrap: anywhere; }
  .side .address { display: block; font-weight: var(--wpk-font-weight-normal); font-size: var(--wpk-font-size-s, 0.875rem); }
  .side .folders a { display: block; padding: var(--wpk-space-1) var(--wpk-space-2); border-radius: var(--wpk-radius-s); }
  .side .folders a[aria-current='page'] { background: var(--wpk-color-brand-quiet); font-weight: var(--wpk-font-weight-bold); }
  @media (max-width: 700px) { .side .folders { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); } }
  .side .compose a { display: inline-block; padding: var(--wpk-space-1) var(--wpk-space-3); border-radius: var(--wpk-radius-m); background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); text-decoration: none; font-weight: var(--wpk-font-weight-bold); }
  .main { min-width: 0; }
`;
