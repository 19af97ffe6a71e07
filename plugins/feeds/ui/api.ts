import { kit, type components } from '@wpk/ui';

export type Channel = components['schemas']['FeedsChannel'];
export type Post = components['schemas']['FeedsPost'];
export type Comment = components['schemas']['FeedsComment'];
export type Timeline = components['schemas']['FeedsTimeline'];
export type Binding = components['schemas']['FeedsBinding'];
export type BindableAction = components['schemas']['FeedsBindableAction'];

/** The text of a post's (server-sanitised) HTML: the front-end shows it as plain text. */
export function textOf(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** `@[Ada](member id)`, which the composer's Mention button writes, as the API's mention element. */
const MENTION_TOKEN = /@\[([^\]\n]{1,200})\]\(([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)/g;

/** The token the composer writes for a mention of `member`. */
export const mentionToken = (member: { id: string; name: string }) => `@[${member.name.replace(/[\]\n]/g, ' ')}](${member.id})`;

/** Plain text typed in the composer as the HTML the API takes: paragraphs, characters escaped, mention tokens as mentions. */
export function htmlOf(text: string): string {
  const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const mentions = (line: string) => line.replace(MENTION_TOKEN, (_token, name: string, id: string) => `<span data-type="mention" data-id="${id}">@${name}</span>`);
  return text.split(/\n{2,}/).map((part) => `<p>${mentions(escape(part.trim())).replace(/\n/g, '<br>')}</p>`).join('');
}

/** Asks the shell for a member and writes their mention token at the cursor of `field` (a textarea of a form). */
export async function insertMention(field: HTMLTextAreaElement | null): Promise<void> {
  if (!field) return;
  const [member] = await kit().bridge.pickMembers({ title: 'Mention someone', multiple: false });
  if (!member) return;
  const token = `${mentionToken(member)} `;
  const at = field.selectionStart ?? field.value.length;
  field.value = `${field.value.slice(0, at)}${token}${field.value.slice(field.selectionEnd ?? at)}`;
  field.focus();
  field.setSelectionRange(at + token.length, at + token.length);
}
