import { html, kit, navigate, nothing, type components } from '@wpk/ui';

/** A company as the API answers it. */
export type Company = components['schemas']['CompaniesCompany'];

/** The employee ranges the API takes (`size`). */
export const SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;

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

/** `City, Country` of a company, or ''. */
export function place(company: Company): string {
  return [company.address.city, company.address.country].filter(Boolean).join(', ');
}
