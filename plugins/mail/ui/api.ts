import { css, errorText, formatBytes, html, kit, nothing, toast, type TemplateResult, type components } from '@wpk/ui';

export type Account = components['schemas']['MailHostedAccount'] | components['schemas']['MailConnectedAccount'];
export type Message = components['schemas']['MailMessage'];
export type Draft = components['schemas']['MailDraft'];
export type Signature = components['schemas']['MailSignature'];
export type Filter = components['schemas']['MailFilter'];
export type BlockedSender = components['schemas']['MailBlockedSender'];
export type Address = components['schemas']['MailAddress'];
export type Attachment = components['schemas']['MailAttachment'];
export type Upload = components['schemas']['MailUpload'];
export type Download = components['schemas']['MailDownload'];

/** The folders every account shows in the side list, in the order mail clients list them; `drafts` is the drafts route. */
export const FOLDERS: Array<{ name: string; label: string }> = [
  { name: 'inbox', label: 'Inbox' },
  { name: 'drafts', label: 'Drafts' },
  { name: 'sent', label: 'Sent' },
  { name: 'outbox', label: 'Outbox' },
  { name: 'archive', label: 'Archive' },
  { name: 'spam', label: 'Spam' },
  { name: 'trash', label: 'Trash' },
];

export const folderLabel = (name: string): string => FOLDERS.find((folder) => folder.name === name)?.label ?? name;

/** A page of parts (a form each: a domain, a signature) whose refusals show under the part they came from. */
export interface PartsPage {
  refusal: Record<string, string>;
}

/**
 * Runs a change of one part of the page: on success its refusal is cleared, its form emptied, the
 * person told `done` and the page read again (`reload`); a refusal (of the change or the reading)
 * shows under the part.
 */
export async function changePart(page: PartsPage, part: string, run: () => Promise<unknown>, done: string, form: HTMLFormElement | undefined, reload: () => Promise<unknown>): Promise<void> {
  try {
    await run();
    page.refusal = { ...page.refusal, [part]: '' };
    form?.reset();
    toast(done, 'success');
    await reload();
  } catch (error) {
    page.refusal = { ...page.refusal, [part]: errorText(error) };
  }
}

/** A part's refusal, if any, as an alert. */
export const partRefusal = (page: PartsPage, part: string): TemplateResult | typeof nothing => (page.refusal[part] ? html`<p class="error" role="alert">${page.refusal[part]}</p>` : nothing);

/** GET a route's `data`. */
export async function read<T>(path: string): Promise<T> {
  return (await kit().client.request<{ data: T }>('GET', path)).data;
}

/** Sends a body to a route and answers its `data`. */
export async function write<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return (await kit().client.request<{ data: T }>(method, path, body === undefined ? {} : { body: body as never })).data;
}

/** The member's accounts (hosted mailboxes assigned to them, connected mailboxes), by address. */
export const accounts = (): Promise<Account[]> => read<Account[]>('/mail/accounts?per_page=100');

/** A folder's newest 100 messages; `q` keeps those whose subject or sender contains it. */
export const folderMessages = (accountId: string, folder: string, q = ''): Promise<Message[]> =>
  read<Message[]>(`/mail/accounts/${accountId}/messages?folder=${encodeURIComponent(folder)}&per_page=100${q ? `&q=${encodeURIComponent(q)}` : ''}`);

/** "Ann <ann@example.com>", or the bare address. */
export const addressText = (address: Address): string => (address.name ? `${address.name} <${address.address}>` : address.address);

/** Addresses typed in a field: separated by commas or semicolons, each `Name <address>` or `address`. */
export function parseAddresses(value: string): Address[] {
  return value
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const named = /^(.*)<([^>]+)>$/.exec(part);
      if (!named) return { address: part };
      const name = named[1].trim().replace(/^"(.*)"$/, '$1');
      return name ? { address: named[2].trim(), name } : { address: named[2].trim() };
    });
}

/** The subject without its Re:/Fwd: prefixes, lower-cased: what a thread's messages share. */
export const baseSubject = (subject: string): string => subject.replace(/^\s*((re|fwd?|aw|wg)\s*:\s*)+/i, '').trim().toLowerCase();

export interface Thread {
  /** Its messages, oldest first. */
  messages: Message[];
  /** The newest message (the list shows it and links to it). */
  latest: Message;
  unread: number;
}

const when = (message: Message): string => message.received_at ?? message.sent_at ?? message.updated_at ?? '';

/**
 * Messages grouped by conversation, newest conversation first: a reply joins the message it
 * answers (`in_reply_to` = that message's `Message-ID`), and messages whose subjects are the same
 * once Re:/Fwd: are taken off join too (a reply from a client that dropped the header).
 */
export function threadsOf(messages: Message[]): Thread[] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const join = (a: string, b: string) => parent.set(find(a), find(b));
  const byHeader = new Map<string, string>();
  const bySubject = new Map<string, string>();
  for (const message of messages) {
    parent.set(message.id, message.id);
    if (message.message_id_header) byHeader.set(message.message_id_header, message.id);
  }
  for (const message of messages) {
    const answered = message.in_reply_to ? byHeader.get(message.in_reply_to) : undefined;
    if (answered) join(message.id, answered);
    const subject = baseSubject(message.subject);
    if (!subject) continue;
    const same = bySubject.get(subject);
    if (same) join(message.id, same);
    else bySubject.set(subject, message.id);
  }
  const groups = new Map<string, Message[]>();
  for (const message of messages) {
    const root = find(message.id);
    groups.set(root, [...(groups.get(root) ?? []), message]);
  }
  return [...groups.values()]
    .map((group) => {
      const sorted = [...group].sort((a, b) => when(a).localeCompare(when(b)));
      return { messages: sorted, latest: sorted[sorted.length - 1], unread: sorted.filter((message) => !message.seen).length };
    })
    .sort((a, b) => when(b.latest).localeCompare(when(a.latest)));
}

/** The thread a message belongs to, among these messages (the message alone when none joins it). */
export function threadOf(message: Message, messages: Message[]): Message[] {
  const all = messages.some((other) => other.id === message.id) ? messages : [...messages, message];
  return threadsOf(all).find((thread) => thread.messages.some((other) => other.id === message.id))!.messages;
}

/** "plan.pdf (48 kB)". */
export const fileText = (file: Pick<Attachment, 'filename' | 'size_bytes'>): string => `${file.filename} (${formatBytes(file.size_bytes, kit().locale)})`;

/** The screens' look. */
export const MAIL_STYLES = css`
  .muted { color: var(--wpk-color-text-muted); }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; }
  ul.plain { list-style: none; padding: 0; margin: 0; }
  form.fields { display: grid; gap: var(--wpk-space-1); max-width: 48rem; }
  form.fields label { font-weight: var(--wpk-font-weight-bold); margin-top: var(--wpk-space-2); }
  form.fields input, form.fields textarea, form.fields select { width: 100%; box-sizing: border-box; font: inherit; }
  form.fields button { justify-self: start; }
  button { font: inherit; }
  .card { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); margin-bottom: var(--wpk-space-3); }
  ul.files { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1) var(--wpk-space-3); margin-top: var(--wpk-space-2); overflow-wrap: anywhere; }
  pre.body { white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--wpk-font-sans); margin: var(--wpk-space-2) 0 0; }
`;
