import { html, kit, navigate, nothing, type components } from '@wpk/ui';

/** A contact as the API answers it. */
export type Contact = components['schemas']['ContactsContact'];
/** One of the member's suggestions. */
export type Suggestion = components['schemas']['ContactsSuggestion'];

/** The shell's path of one of the app's own paths, for links a person can open in a new tab. */
export function appHref(path: string): string {
  return `/app/${kit().app.slug}${path}`;
}

/** A link to one of the app's paths: a real href (new tab works), the shell's navigation on click. */
export function appLink(path: string, label: unknown, current = false) {
  return html`<a href=${appHref(path)} aria-current=${current ? 'page' : nothing} @click=${(event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    void navigate(path);
  }}>${label}</a>`;
}

/** A comma-separated list as typed in a field: trimmed, empty parts dropped. */
export function splitList(text: unknown): string[] {
  return String(text ?? '')
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
}
