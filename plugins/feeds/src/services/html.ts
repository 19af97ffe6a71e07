import sanitizeHtml from 'sanitize-html';
import { InvalidError, isUuid } from '@wpk/sdk';

/**
 * A mention as the editors write it (tiptap's Mention node): `<span data-type="mention"
 * data-id="{member_id}">@Ada</span>`. Any other span keeps its text and loses its attributes.
 */
function mentionSpan(_tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const id = attribs['data-id'];
  if (attribs['data-type'] === 'mention' && typeof id === 'string' && isUuid(id)) return { tagName: 'span', attribs: { 'data-type': 'mention', 'data-id': id.toLowerCase() } };
  return { tagName: 'span', attribs: {} };
}

const MENTION = /<span data-type="mention" data-id="([0-9a-f-]{36})">/g;

/** The markup a post or a comment may keep; everything else is dropped (its text stays). */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'blockquote', 'code', 'pre', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'a', 'hr', 'span'],
  allowedAttributes: { a: ['href', 'title', 'rel'], span: ['data-type', 'data-id'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }), span: mentionSpan },
};

/**
 * Rich text as it is stored: the HTML sanitised with sanitize-html (scripts, styles, event
 * handlers and `javascript:` links gone, links given `rel="noopener noreferrer nofollow"`).
 * 400 naming `field` when nothing readable is left.
 */
export function cleanHtml(html: string, field: string): string {
  const clean = sanitizeHtml(html, OPTIONS).trim();
  if (plainText(clean) === '') throw new InvalidError(`${field}: the text is empty once its markup is sanitised`, { field });
  return clean;
}

/** The text of sanitised HTML, for the search index and previews. */
export function plainText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim();
}

/** The member ids mentioned in sanitised HTML, each once, in order of appearance. */
export function mentionsIn(html: string): string[] {
  return [...new Set([...html.matchAll(MENTION)].map((match) => match[1]))];
}
