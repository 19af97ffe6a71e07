/**
 * The workspace shell's script (bundled by @wpk/ui/build into the platform's assets): the top
 * bar's search, notifications bell and app switcher on every workspace page, and on an app's page
 * the host of its sandboxed frame (the bridge). Without it every page still works: the switcher
 * links to the launcher, the member menu is a plain disclosure.
 */
import '../components/confirm-dialog.js';
import '../components/toaster.js';
import { shellContext } from './api.js';
import './bell.js';
import { AppHost } from './host.js';
import type { WpkFilePickerDialog, WpkMemberPickerDialog } from './pickers.js';
import './pickers.js';
import type { WpkShellSearch } from './search.js';
import './search.js';
import type { WpkShellBell } from './bell.js';

const context = shellContext();

/** The switcher's list, loaded once from `/partials/apps` (the apps this member can open). */
let switcher: Promise<Array<{ slug: string; name: string }>> | null = null;
function loadSwitcher(): Promise<Array<{ slug: string; name: string }>> {
  switcher ??= fetch('/partials/apps', { credentials: 'same-origin' }).then(async (response) => {
    const target = document.getElementById('app-switcher-list');
    if (!response.ok || !target) return [];
    target.outerHTML = await response.text();
    return [...document.querySelectorAll<HTMLAnchorElement>('#app-switcher-list a[data-slug]')].map((link) => ({ slug: link.dataset.slug!, name: link.textContent!.trim() }));
  });
  return switcher;
}

if (context) {
  const bar = document.querySelector('[data-shell-tools]');
  const search = document.createElement('wpk-shell-search') as WpkShellSearch;
  if (bar) {
    search.context = context;
    search.apps = loadSwitcher;
    const bell = document.createElement('wpk-shell-bell') as WpkShellBell;
    bell.context = context;
    bar.prepend(search);
    bar.querySelector('[data-bell]')?.replaceWith(bell);
  }
  document.getElementById('app-switcher')?.addEventListener('toggle', () => void loadSwitcher(), { once: true });

  const frame = document.getElementById('app-frame') as HTMLIFrameElement | null;
  if (frame && context.app) {
    const toaster = document.body.appendChild(document.createElement('wpk-toaster'));
    const confirm = document.body.appendChild(document.createElement('wpk-confirm-dialog'));
    const members = document.body.appendChild(document.createElement('wpk-member-picker-dialog')) as WpkMemberPickerDialog;
    const files = document.body.appendChild(document.createElement('wpk-file-picker-dialog')) as WpkFilePickerDialog;
    members.context = context;
    files.context = context;
    new AppHost({ ...context, app: context.app }, { frame, toaster, confirm, members, files, search });
  }
}
