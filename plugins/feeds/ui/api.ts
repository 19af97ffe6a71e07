import { css, kit, type components } from '@wpk/ui';

export type Channel = components['schemas']['FeedsChannel'];
export type Post = components['schemas']['FeedsPost'];
export type Comment = components['schemas']['FeedsComment'];
export type Timeline = components['schemas']['FeedsTimeline'];
export type Binding = components['schemas']['FeedsBinding'];
export type BindableAction = components['schemas']['FeedsBindableAction'];

/** How a post's or a comment's rich text looks (`.text`, with its mentions). */
export const RICH_TEXT_CSS = css`
  .text p { margin: 0 0 0.5em; }
  .text .mention { color: #1e3a8a; background: #dbeafe; border-radius: 4px; padding: 0 2px; }
  .text a { color: #1d4ed8; }
`;

/** The markup a post's body is shown with: the server's sanitiser's (services/html.ts), checked once more here. */
const KEPT = new Set(['P', 'BR', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'BLOCKQUOTE', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'H2', 'H3', 'H4', 'A', 'HR', 'SPAN']);

/**
 * A post's or a comment's (server-sanitised) HTML as DOM nodes to show: only the kept elements,
 * links on `http(s):`/`mailto:` only (opened in a new tab, no referrer), mentions as
 * `<span class="mention" data-id>`; every other attribute and element is dropped (its text stays).
 */
export function richText(html: string): DocumentFragment {
  const out = document.createDocumentFragment();
  const copy = (from: Node, to: Node) => {
    for (const child of Array.from(from.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) to.appendChild(document.createTextNode(child.textContent ?? ''));
      else if (child instanceof Element && KEPT.has(child.tagName)) {
        const element = document.createElement(child.tagName.toLowerCase());
        const href = child.getAttribute('href') ?? '';
        if (child.tagName === 'A' && /^(https?:\/\/|mailto:)/i.test(href)) Object.assign(element, { href, rel: 'noopener noreferrer nofollow', target: '_blank' });
        if (child.tagName === 'SPAN' && child.getAttribute('data-type') === 'mention') {
          element.className = 'mention';
          element.dataset.id = child.getAttribute('data-id') ?? '';
        }
        copy(child, element);
        to.appendChild(element);
      } else if (child instanceof Element) copy(child, to);
    }
  };
  copy(new DOMParser().parseFromString(html, 'text/html').body, out);
  return out;
}

/** Joined members to mention, as `@` and a name are typed in the rich text editor. */
export const findMention = (query: string) => kit().bridge.findMembers(query);

/** Asks the shell for one member to mention (the rich text editor's Mention button). */
export async function pickMention(): Promise<{ id: string; name: string } | undefined> {
  const [member] = await kit().bridge.pickMembers({ title: 'Mention someone', multiple: false });
  return member;
}
