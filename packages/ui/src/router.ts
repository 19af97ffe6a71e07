import { html, nothing, type TemplateResult } from 'lit';
import { kit } from './app.js';

/** A route's parameters: `/boards/:board_id` matched by `/boards/42` gives `{ board_id: '42' }`. */
export type RouteParams = Record<string, string>;

/** Matches a path against a pattern of `/literal` and `/:name` segments; null when it does not match. */
export function matchRoute(pattern: string, path: string): RouteParams | null {
  const wanted = pattern.split('/').filter(Boolean);
  const given = path.split(/[?#]/)[0].split('/').filter(Boolean);
  if (wanted.length !== given.length) return null;
  const params: RouteParams = {};
  for (const [index, segment] of wanted.entries()) {
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(given[index]);
    else if (segment !== given[index]) return null;
  }
  return params;
}

/** The query of a route path (`/boards/1?lane=Done` → `lane=Done`). */
export function routeQuery(path: string): URLSearchParams {
  const at = path.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : path.slice(at + 1));
}

/**
 * Follows the app's route: calls `render(path)` now and whenever it changes — the app navigated
 * (`navigate`) or the person used Back or Forward in the shell. Deep links work because the shell
 * hands the app its path in `init`.
 */
export function onRoute(render: (path: string) => void): () => void {
  const { bridge } = kit();
  const listener = () => render(bridge.route);
  bridge.addEventListener('route', listener);
  render(bridge.route);
  return () => bridge.removeEventListener('route', listener);
}

/** Shows another path of the app and renders it. */
export async function navigate(path: string, options: { replace?: boolean } = {}): Promise<void> {
  const { bridge } = kit();
  await bridge.navigate(path, options);
  bridge.dispatchEvent(new CustomEvent('route', { detail: path }));
}

/** A toast in the shell. */
export function toast(message: string, variant: 'success' | 'danger' | 'neutral' = 'neutral'): void {
  void kit().bridge.toast(message, variant);
}

/** A confirmation in the shell; true when confirmed. */
export function confirmAction(options: { title: string; message: string; confirm_label?: string; danger?: boolean }): Promise<boolean> {
  return kit().bridge.confirm(options);
}

/** The shell's URL of one of the app's own paths (`/app/{slug}{path}`), for links a person can open in a new tab. */
export function appHref(path: string): string {
  return `/app/${kit().app.slug}${path}`;
}

/**
 * A link to one of the app's paths: a real `href` (a new tab, Ctrl- or Shift-click work), the
 * shell's navigation on a plain click; `current` marks it `aria-current="page"`.
 */
export function appLink(path: string, label: unknown, current = false): TemplateResult {
  return html`<a href=${appHref(path)} aria-current=${current ? 'page' : nothing} @click=${(event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    void navigate(path);
  }}>${label}</a>`;
}

/**
 * Which of an app's top-level sections a path is in: the section named by the path's first
 * segment (`/trash/...` → `/trash`), else the first section (the app's home, usually `/`).
 */
export function sectionOf(path: string, sections: readonly string[]): string {
  const first = `/${path.split(/[?#]/)[0].split('/')[1] ?? ''}`;
  return sections.includes(first) ? first : (sections[0] ?? '/');
}
