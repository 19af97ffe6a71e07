import { type components } from '@wpk/ui';

export type Channel = components['schemas']['FeedsChannel'];
export type Post = components['schemas']['FeedsPost'];
export type Comment = components['schemas']['FeedsComment'];
export type Timeline = components['schemas']['FeedsTimeline'];

/** The text of a post's (server-sanitised) HTML: the front-end shows it as plain text. */
export function textOf(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** Plain text typed in the composer as the HTML the API takes: paragraphs, characters escaped. */
export function htmlOf(text: string): string {
  const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text.split(/\n{2,}/).map((part) => `<p>${escape(part.trim()).replace(/\n/g, '<br>')}</p>`).join('');
}
