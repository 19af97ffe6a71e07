import { kit, type components } from '@wpk/ui';

export type Channel = components['schemas']['FeedsChannel'];
export type Post = components['schemas']['FeedsPost'];
export type Comment = components['schemas']['FeedsComment'];
export type Timeline = components['schemas']['FeedsTimeline'];

/** Calls one of the app's routes and answers the record of its `{data}`. */
export async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const answer = await kit().client.request<{ data: T }>(method, path, body === undefined ? {} : { body });
  return answer.data;
}

/** The text of a post's (server-sanitised) HTML: the front-end shows it as plain text. */
export function textOf(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** Plain text typed in the composer as the HTML the API takes: paragraphs, characters escaped. */
export function htmlOf(text: string): string {
  const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text.split(/\n{2,}/).map((part) => `<p>${escape(part.trim()).replace(/\n/g, '<br>')}</p>`).join('');
}
