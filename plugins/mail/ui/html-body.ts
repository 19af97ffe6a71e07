import { LitElement, css, html, nothing } from '@wpk/ui';

/** Elements kept as they are (their attributes filtered); any other element gives way to its children. */
const KEPT = new Set('a abbr address b bdi bdo blockquote br caption center cite code col colgroup dd del dfn div dl dt em font h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp small span strike strong sub sup table tbody td tfoot th thead time tr tt u ul var'.split(' '));

/** Elements dropped with everything in them: what runs, loads, submits or is not content. */
const DROPPED = new Set('script style noscript template iframe frame frameset object embed applet form input button textarea select option link meta base title head svg math audio video source track canvas dialog portal'.split(' '));

/** Attributes kept (links and pictures have their own checks below). */
const ATTRIBUTES = new Set('class id alt title width height colspan rowspan align valign dir lang color bgcolor border cellpadding cellspacing start type datetime cite face size'.split(' '));

/**
 * CSS without what could load something (`url(…)`, `@import`) or escape the message's box
 * (`position: fixed`; a `:host` rule, which would style the box itself, from inside, and could lay
 * it over the page: it matches nothing).
 */
const tameCss = (text: string): string =>
  text.replace(/@import[^;]*;?/gi, '').replace(/url\s*\([^)]*\)/gi, 'none').replace(/position\s*:\s*fixed/gi, 'position: static').replace(/expression\s*\(/gi, '(').replace(/:host(-context)?\b/gi, ':not(*)');

/** Where a `style` attribute waits between the parse and the CSSOM. */
const MOVED_STYLE = 'data-wpk-style';

/** A sanitised HTML body: its content (an inert fragment), its style sheets, and how many remote pictures were left out. */
export interface SafeBody {
  fragment: DocumentFragment;
  css: string;
  remoteImages: number;
}

/**
 * Sanitises a received message's HTML: parsed inert (in a document without a window), then rebuilt from an
 * allowlist: no script, no frame, no form, no event handler, links only to http(s) and mailto
 * (opened in a new tab), pictures only from data: URIs: a remote picture (a tracking pixel as
 * often as not) is left out and counted. `style` attributes become CSSOM declarations and
 * `<style>` blocks a constructed sheet: neither is inline style to the page's CSP.
 */
export function sanitiseHtml(source: string): SafeBody {
  // Style blocks, scripts, handlers and style attributes are set aside before parsing: the parse
  // itself would otherwise put them before the page's CSP (which reports them, though none would run).
  const blocks: string[] = [];
  const prepared = source
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (_all, text: string) => {
      blocks.push(tameCss(text));
      return '';
    })
    .replace(/<script\b[\s\S]*?(<\/script\s*>|$)/gi, '')
    .replace(/<[^>]*>/g, (tag) => tag.replace(/\s(on[a-z]+|style)(\s*=)/gi, (_all, name: string, equals: string) => ` ${name.toLowerCase() === 'style' ? MOVED_STYLE : 'data-dropped'}${equals}`));
  // A document of its own, with no window: nothing in it runs or loads.
  const parsed = document.implementation.createHTMLDocument('');
  parsed.documentElement.innerHTML = prepared;
  const css = blocks.join('\n');
  let remoteImages = 0;
  const copy = (node: Node, into: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      into.appendChild(document.createTextNode(node.textContent ?? ''));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    const tag = element.localName;
    if (DROPPED.has(tag)) return;
    if (!KEPT.has(tag)) {
      for (const child of element.childNodes) copy(child, into);
      return;
    }
    const clean = document.createElement(tag);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      if (ATTRIBUTES.has(name)) clean.setAttribute(name, attribute.value);
      else if (name === MOVED_STYLE) (clean as HTMLElement).style.cssText = tameCss(attribute.value);
    }
    if (tag === 'a') {
      const href = element.getAttribute('href')?.trim() ?? '';
      if (/^(https?:|mailto:)/i.test(href)) {
        clean.setAttribute('href', href);
        clean.setAttribute('target', '_blank');
        clean.setAttribute('rel', 'noopener noreferrer');
      }
    }
    if (tag === 'img') {
      const src = element.getAttribute('src')?.trim() ?? '';
      if (/^data:image\/(png|gif|jpeg|webp);/i.test(src)) clean.setAttribute('src', src);
      else if (src) remoteImages += 1;
      if (!clean.hasAttribute('alt')) clean.setAttribute('alt', '');
    }
    for (const child of element.childNodes) copy(child, clean);
    into.appendChild(clean);
  };
  const fragment = document.createDocumentFragment();
  for (const child of parsed.body.childNodes) copy(child, fragment);
  return { fragment, css, remoteImages };
}

/**
 * `<mail-html-body .source=…>`: a received HTML body, sanitised (`sanitiseHtml`) and shown in its
 * own shadow root, its styles scoped to it and its layout contained in its box; a note says how
 * many remote pictures were left out.
 */
export class MailHtmlBody extends LitElement {
  static override properties = { source: {}, remoteImages: { state: true } };
  static override styles = css`
    :host { display: block; margin-top: var(--wpk-space-2); }
    .note { color: var(--wpk-color-text-muted); font-size: var(--wpk-font-size-s, 0.875rem); margin: 0 0 var(--wpk-space-2); }
    .content { contain: layout paint; overflow: auto; max-width: 100%; overflow-wrap: anywhere; }
  `;
  declare source: string;
  declare remoteImages: number;
  private readonly sheet = new CSSStyleSheet();

  constructor() {
    super();
    this.source = '';
    this.remoteImages = 0;
  }

  protected override updated(changed: Map<string, unknown>): void {
    if (!changed.has('source')) return;
    // The message lives in a shadow root of its own: its style rules (a constructed sheet) reach nothing outside it, not even the note above.
    const host = this.renderRoot.querySelector('.content')!;
    const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    const safe = sanitiseHtml(this.source);
    this.sheet.replaceSync(`:host { display: block; } img { max-width: 100%; height: auto; }\n${safe.css}`);
    root.adoptedStyleSheets = [this.sheet];
    root.replaceChildren(safe.fragment);
    this.remoteImages = safe.remoteImages;
  }

  protected override render() {
    return html`${this.remoteImages ? html`<p class="note">${this.remoteImages === 1 ? '1 remote picture was not loaded' : `${this.remoteImages} remote pictures were not loaded`} (pictures from other sites can track when a message is read).</p>` : nothing}<div class="content"></div>`;
  }
}

customElements.define('mail-html-body', MailHtmlBody);
