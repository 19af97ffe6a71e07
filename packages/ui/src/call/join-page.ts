import { LitElement, css, html } from 'lit';
import { screenStyles } from '../components/shared-styles.js';
import type { CallJoinTicket, CallTransport, WpkCall } from './call.js';
import type { CallRecorder } from './recording.js';

/** The version the same-origin page pins (its requests are the app's own routes, with the session cookie). */
export const JOIN_PAGE_API_VERSION = '2026-11-01';

/**
 * One request of a same-origin page: the member's session cookie, the pinned version, and the
 * answer's `data` (its `error` thrown). A POST without a body sends `{}`.
 */
export async function sameOriginRequest<T>(method: string, path: string, payload?: object): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'x-api-version': JOIN_PAGE_API_VERSION, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: payload ? JSON.stringify(payload) : method === 'POST' ? '{}' : undefined,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${method} ${path}: ${response.status}`);
  return body.data as T;
}

/**
 * The transport of a resource whose session is joined through `POST` and `DELETE
 * {resource}/sessions` (answering `{signaling: ticket}`), on a same-origin page.
 */
export function sessionsTransport(resourcePath: string): CallTransport {
  return {
    apiVersion: JOIN_PAGE_API_VERSION,
    join: async () => (await sameOriginRequest<{ signaling: CallJoinTicket }>('POST', `${resourcePath}/sessions`)).signaling,
    leave: async () => void (await sameOriginRequest('DELETE', `${resourcePath}/sessions`)),
  };
}

/** What makes one app's join page: the resource (a call, a room) and how it reads. */
export interface JoinPageOptions<T> {
  /** The custom element's name (`calls-join-page`). */
  tag: string;
  /** The query parameter that names the resource (`call` in `join.html?call={id}`). */
  param: string;
  /** The resource's route with `{id}` (`/calls/{id}`): GET reads it, `…/sessions` joins it. */
  path: string;
  /** The resource's page in the app with `{id}` (`/app/calls/calls/{id}`), the way back. */
  back: string;
  /** The resource's noun, lower case (`call`, `room`): headings, the loading and back texts. */
  noun: string;
  /** The app's name, after the title in the tab (`Calls`). */
  app: string;
  /** The resource's title (the heading, the tab, the call's label). */
  title: (resource: T) => string;
  /** True for a video call (default: true). */
  video?: (resource: T) => boolean;
  /** Why it can no longer be joined (`This call is over.`), or null. */
  closed?: (resource: T) => string | null;
  /** How the call reaches the platform (default: `sessionsTransport` of the resource's route). */
  transport?: (resourcePath: string, resource: T) => CallTransport;
  /** How the call is recorded (default: none, no Record button). */
  recorder?: (resourcePath: string, resource: T) => CallRecorder;
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A same-origin join page (`join.html?{param}={id}`): the resource read over HTTP with the
 * session cookie, its title as the heading, `<wpk-call>` joining through the transport, and the
 * way back to the resource's page in the app. The call's state is `window.wpkCall` for scripts
 * and tests.
 */
export abstract class WpkJoinPage<T> extends LitElement {
  static override properties = { resource: { state: true }, error: { state: true } };
  static override styles = [screenStyles, css`:host { display: block; max-width: 72rem; margin: 0 auto; padding: var(--wpk-space-3); }`];
  declare resource: T | null;
  declare error: string | null;
  protected abstract readonly options: JoinPageOptions<T>;

  constructor() {
    super();
    this.resource = null;
    this.error = null;
  }

  /** The resource's id from the query. */
  get resourceId(): string {
    return new URLSearchParams(location.search).get(this.options.param) ?? '';
  }

  private pathOf(template: string): string {
    return template.replace('{id}', encodeURIComponent(this.resourceId));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    const { param, noun, app, path, title } = this.options;
    try {
      if (!this.resourceId) throw new Error(`Open this page with ?${param}={${noun} id}`);
      this.resource = await sameOriginRequest<T>('GET', this.pathOf(path));
      document.title = `${title(this.resource)} · ${app}`;
    } catch (error) {
      this.error = String((error as Error)?.message ?? error);
    }
  }

  protected override updated(): void {
    const element = this.renderRoot.querySelector<WpkCall>('wpk-call');
    if (element) (window as unknown as { wpkCall: unknown }).wpkCall = element.state;
  }

  protected override render() {
    const { noun, title, video, closed, transport, recorder } = this.options;
    const back = html`<p class="back"><a href=${this.pathOf(this.options.back)}>← The ${noun}'s page</a></p>`;
    if (this.error) return html`<main>${back}<h1>${capitalised(noun)}</h1><p class="error" role="alert">${this.error}</p></main>`;
    const resource = this.resource;
    if (!resource) return html`<main><p role="status">Loading the ${noun}…</p></main>`;
    const over = closed?.(resource) ?? null;
    const resourcePath = this.pathOf(this.options.path);
    return html`<main>
      ${back}
      <h1>${title(resource)}</h1>
      ${over
        ? html`<p>${over}</p>`
        : html`<wpk-call label=${title(resource)} ?video=${video?.(resource) ?? true} .transport=${(transport ?? sessionsTransport)(resourcePath, resource)} .recorder=${recorder?.(resourcePath, resource) ?? null}></wpk-call>`}
    </main>`;
  }
}

/** Defines the app's join page and puts it on the document. */
export function mountJoinPage<T>(options: JoinPageOptions<T>): void {
  if (!customElements.get(options.tag)) {
    customElements.define(
      options.tag,
      class extends WpkJoinPage<T> {
        protected readonly options = options;
      },
    );
  }
  document.documentElement.lang ||= 'en';
  document.body.append(document.createElement(options.tag));
}
