import { LitElement, confirmAction, css, errorText, formatBytes, html, kit, nothing, repeat, screenStyles, signedUploadTarget, toast, uploadFileBody, type LiveEvent, type UploadTarget } from '@wpk/ui';
import { editableText, idOfMrn, store, textParts, type Chat, type Message, type Participant } from '../api.js';
import './composer.js';

/** The reactions offered on every message (any emoji another client sent shows too). */
const QUICK = ['👍', '🎉'];
/** How many of the newest messages the view loads. */
const PAGE = 100;

/** Puts a message in a list ordered by seq, or replaces it (keeping its reactions: message events carry none). */
function upsert(list: Message[], message: Message): Message[] {
  const at = list.findIndex((held) => held.id === message.id);
  if (at >= 0) {
    const next = [...list];
    next[at] = { ...message, reactions: message.deleted ? [] : list[at].reactions };
    return next;
  }
  return [...list, message].sort((a, b) => a.seq - b.seq);
}

/**
 * A chat's messages, live: the newest first loaded after the channel's subscription answered,
 * then every event applied by message id (so an event that the load already showed, or one
 * replayed after a reconnect, changes nothing twice). Own messages can be edited and deleted (a
 * deleted one stays as a tombstone), any can get reactions and replies in a thread; the read
 * position follows what the member sees, and a line marks where the unread messages start.
 */
export class ChatView extends LitElement {
  static override properties = {
    chatId: { attribute: false },
    chat: { state: true },
    messages: { state: true },
    participants: { state: true },
    readFrom: { state: true },
    thread: { state: true },
    replies: { state: true },
    editing: { state: true },
    error: { state: true },
  };
  declare chatId: string;
  declare chat: Chat | null;
  declare messages: Message[];
  declare participants: Participant[];
  declare readFrom: number;
  declare thread: Message | null;
  declare replies: Message[];
  declare editing: string | null;
  declare error: string | null;
  private stop: (() => void) | null = null;
  private buffer: LiveEvent[] | null = null;
  private readSeq = 0;
  private readTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly visible = () => this.markRead();
  private readonly storeChanged = () => this.requestUpdate();

  static override styles = [screenStyles, css`
    :host { display: block; }
    h1 { margin: 0; }
    .topic, .people { margin: 0 0 var(--wpk-space-2); color: var(--wpk-color-text-muted); }
    .online::before { content: '●'; color: var(--wpk-color-success); margin-inline-end: 0.2em; }
    .layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--wpk-space-4); }
    .layout.threaded { grid-template-columns: minmax(0, 1fr) minmax(16rem, 24rem); }
    @media (max-width: 900px) { .layout.threaded { grid-template-columns: minmax(0, 1fr); } }
    ol { list-style: none; margin: 0 0 var(--wpk-space-2); padding: 0; }
    ol.messages { max-height: 60vh; overflow-y: auto; border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-2); }
    li.message { padding: var(--wpk-space-2); border-radius: var(--wpk-radius-m); }
    li.message:hover, li.message:focus-within { background: var(--wpk-color-surface-raised); }
    li.divider { text-align: center; color: var(--wpk-color-danger); font-size: var(--wpk-font-size-s); border-top: 1px solid var(--wpk-color-danger); margin: var(--wpk-space-2) 0; }
    .meta { display: flex; gap: var(--wpk-space-2); align-items: baseline; flex-wrap: wrap; }
    .meta .muted { font-size: var(--wpk-font-size-s); }
    .body { margin: var(--wpk-space-1) 0; white-space: pre-wrap; overflow-wrap: anywhere; }
    .mention { color: var(--wpk-color-link); font-weight: var(--wpk-font-weight-bold); }
    .mention.me { background: var(--wpk-color-warning-quiet); border-radius: var(--wpk-radius-s); }
    fieldset.lists { display: flex; flex-wrap: wrap; gap: var(--wpk-space-3); border: 0; padding: 0; margin: 0 0 var(--wpk-space-2); }
    fieldset.lists legend { float: left; margin-inline-end: var(--wpk-space-2); color: var(--wpk-color-text-muted); }
    .file { margin: var(--wpk-space-1) 0; }
    wpk-upload { margin-top: var(--wpk-space-2); }
    .tombstone { font-style: italic; color: var(--wpk-color-text-muted); }
    .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); }
    .actions button { font: inherit; font-size: var(--wpk-font-size-s); border: 1px solid var(--wpk-color-border); background: var(--wpk-color-surface); color: var(--wpk-color-text); border-radius: var(--wpk-radius-pill); padding: 0 var(--wpk-space-2); cursor: pointer; }
    .actions button[aria-pressed='true'] { background: var(--wpk-color-brand-quiet); border-color: var(--wpk-color-brand); }
    .actions button:focus-visible { outline: 2px solid var(--wpk-color-focus); }
    .typing { min-height: 1.5em; margin: 0; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
    aside.thread { border-inline-start: 1px solid var(--wpk-color-border); padding-inline-start: var(--wpk-space-3); }
    aside.thread header { display: flex; justify-content: space-between; align-items: center; }
    aside.thread h2 { margin: 0; }
  `];

  constructor() {
    super();
    this.chatId = '';
    this.chat = null;
    this.messages = [];
    this.participants = [];
    this.readFrom = 0;
    this.thread = null;
    this.replies = [];
    this.editing = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.visible);
    store.addEventListener('change', this.storeChanged);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.visible);
    store.removeEventListener('change', this.storeChanged);
    this.stop?.();
    this.stop = null;
    store.open = null;
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('chatId') && this.chatId) void this.open(this.chatId);
  }

  protected override updated(changed: Map<string, unknown>): void {
    if (changed.has('messages')) {
      const list = this.renderRoot.querySelector('ol.messages');
      if (list) list.scrollTop = list.scrollHeight;
    }
  }

  /** Follows the chat (its channel answers first), then loads it. */
  private async open(chatId: string): Promise<void> {
    this.stop?.();
    Object.assign(this, { chat: null, messages: [], participants: [], thread: null, replies: [], editing: null, error: null, readSeq: 0 });
    store.open = chatId;
    const listening = store.listen(chatId, { event: (event) => this.receive(event), reset: () => void this.load(), people: () => this.requestUpdate() });
    this.stop = listening.stop;
    await store.start();
    await listening.ready;
    if (this.chatId === chatId) await this.load();
  }

  private receive(event: LiveEvent): void {
    if (this.buffer) this.buffer.push(event);
    else this.apply(event);
  }

  /** Reads the chat, its participants and its newest messages; events heard meanwhile are applied after. */
  private async load(): Promise<void> {
    const id = this.chatId;
    this.buffer = [];
    try {
      const { client } = kit();
      const chat = (await client.chat.getChatsById({ params: { id } })).data as Chat;
      const participants = (await client.chat.getChatsByIdParticipants({ params: { id }, query: { per_page: 100 } })).data as Participant[];
      const messages = ((await client.chat.getChatsByIdMessages({ params: { id }, query: { per_page: PAGE } })).data as Message[]).reverse();
      await store.learnNames([...participants.map((participant) => participant.member_id), ...messages.map((message) => idOfMrn(message.sender_mrn))]);
      if (id !== this.chatId) return;
      this.chat = chat;
      this.participants = participants;
      this.readFrom = participants.find((participant) => participant.member_id === store.me)?.last_read_seq ?? 0;
      this.messages = messages;
      for (const event of this.buffer) this.apply(event);
      void kit().bridge.title(store.title(id));
      if (this.thread) await this.openThread(this.thread);
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.buffer = null;
    }
    this.markRead();
  }

  /** One event of the chat's channel, applied by id (idempotent). */
  private apply(event: LiveEvent): void {
    const data = event.data as Record<string, unknown>;
    switch (event.event) {
      case 'message.sent':
      case 'message.edited':
      case 'message.deleted': {
        const message = data as unknown as Message;
        void store.learnNames([idOfMrn(message.sender_mrn)]).then(() => this.requestUpdate());
        if (message.parent_id) {
          if (this.thread?.id === message.parent_id) this.replies = upsert(this.replies, message);
          if (event.event === 'message.sent') void this.refreshMessage(message.parent_id);
        } else {
          this.messages = upsert(this.messages, message);
          if (this.thread?.id === message.id) this.thread = this.messages.find((held) => held.id === message.id) ?? null;
          if (event.event === 'message.sent') this.markRead();
        }
        break;
      }
      case 'reaction.added':
      case 'reaction.removed': {
        const set = (list: Message[]) => list.map((held) => (held.id === data.message_id ? { ...held, reactions: data.reactions as Message['reactions'] } : held));
        this.messages = set(this.messages);
        this.replies = set(this.replies);
        const thread = this.thread;
        if (thread && thread.id === data.message_id) this.thread = { ...thread, reactions: data.reactions as Message['reactions'] };
        break;
      }
      case 'chat.cleared':
        Object.assign(this, { messages: [], replies: [], thread: null });
        break;
      case 'chat.updated':
        if (this.chat) this.chat = { ...this.chat, name: data.name as string, topic: data.topic as string };
        break;
      case 'chat.deleted':
        this.error = 'This chat was deleted.';
        break;
      default:
        if (event.event.startsWith('participant.')) void this.loadParticipants();
    }
  }

  private async loadParticipants(): Promise<void> {
    const participants = (await kit().client.chat.getChatsByIdParticipants({ params: { id: this.chatId }, query: { per_page: 100 } })).data as Participant[];
    await store.learnNames(participants.map((participant) => participant.member_id));
    this.participants = participants;
  }

  /** Reads one top-level message again (a thread's first message after a reply: its reply count). */
  private async refreshMessage(messageId: string): Promise<void> {
    const held = this.messages.find((message) => message.id === messageId);
    if (!held) return;
    const [fresh] = (await kit().client.chat.getChatsByIdMessages({ params: { id: this.chatId }, query: { before: held.seq + 1, per_page: 1 } })).data as Message[];
    if (fresh?.id !== messageId) return;
    this.messages = this.messages.map((message) => (message.id === messageId ? fresh : message));
    if (this.thread?.id === messageId) this.thread = fresh;
  }

  /** Moves the read position to the newest message, once the member can see it. */
  private markRead(): void {
    const newest = this.messages[this.messages.length - 1];
    if (!newest || newest.seq <= this.readSeq || document.visibilityState !== 'visible' || !this.chat?.role) return;
    if (this.readTimer) clearTimeout(this.readTimer);
    this.readTimer = setTimeout(() => {
      this.readSeq = Math.max(this.readSeq, newest.seq);
      kit().client.chat.putChatsByIdRead({ params: { id: this.chatId }, body: { message_id: newest.id } }).catch((error: unknown) => toast(errorText(error), 'danger'));
    }, 300);
  }

  private async send(event: CustomEvent<{ body: string; text: string }>, parentId: string | null): Promise<void> {
    const composer = event.target as HTMLElement & { value: string };
    try {
      const sent = (await kit().client.chat.postChatsByIdMessages({ params: { id: this.chatId }, body: { body: event.detail.body, ...(parentId ? { parent_id: parentId } : {}) } })).data as Message;
      if (parentId) this.replies = upsert(this.replies, sent);
      else this.messages = upsert(this.messages, sent);
    } catch (error) {
      composer.value = event.detail.text;
      toast(errorText(error), 'danger');
    }
  }

  /** Where a shared file's bytes go: a signed link of the chat's uploads. */
  private readonly prepare = async (file: File): Promise<UploadTarget & Record<string, unknown>> => {
    const upload = (await kit().client.chat.postChatsByIdUploads({ params: { id: this.chatId }, body: uploadFileBody(file) })).data;
    return { ...signedUploadTarget(upload.upload.url, file), file_key: upload.file_key };
  };

  /** Once the bytes are in: the message that shares the file. */
  private readonly finish = async (file: File, prepared: Record<string, unknown>): Promise<void> => {
    const sent = (await kit().client.chat.postChatsByIdMessages({ params: { id: this.chatId }, body: { file: { file_key: String(prepared.file_key), filename: file.name } } })).data as Message;
    this.messages = upsert(this.messages, sent);
  };

  private async edit(message: Message, event: CustomEvent<{ body: string }>): Promise<void> {
    try {
      const edited = (await kit().client.chat.patchChatsByIdMessagesByMsgId({ params: { id: this.chatId, msg_id: message.id }, body: { body: event.detail.body } })).data as Message;
      this.put(edited);
      this.editing = null;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async deleteMessage(message: Message): Promise<void> {
    if (!(await confirmAction({ title: 'Delete this message?', message: 'Everyone in the chat will see that a message was deleted here.', confirm_label: 'Delete', danger: true }))) return;
    try {
      this.put((await kit().client.chat.deleteChatsByIdMessagesByMsgId({ params: { id: this.chatId, msg_id: message.id } })).data as Message);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async react(message: Message, emoji: string): Promise<void> {
    const mine = message.reactions.find((reaction) => reaction.emoji === emoji)?.member_mrns.some((mrn) => idOfMrn(mrn) === store.me);
    const params = { id: this.chatId, msg_id: message.id };
    try {
      const answer = mine
        ? (await kit().client.chat.deleteChatsByIdMessagesByMsgIdReactionsByEmoji({ params: { ...params, emoji } })).data
        : (await kit().client.chat.postChatsByIdMessagesByMsgIdReactions({ params, body: { emoji } })).data;
      this.apply({ channel: '', id: '', event: 'reaction.added', data: { message_id: message.id, reactions: (answer as Message).reactions } });
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** A message the member changed, wherever it is shown. */
  private put(message: Message): void {
    if (message.parent_id) this.replies = upsert(this.replies, message);
    else this.messages = upsert(this.messages, message);
    if (this.thread?.id === message.id) this.thread = { ...message, reactions: message.deleted ? [] : this.thread.reactions };
  }

  private async openThread(message: Message): Promise<void> {
    this.thread = message;
    try {
      const replies = (await kit().client.chat.getChatsByIdMessages({ params: { id: this.chatId }, query: { parent_id: message.id, per_page: PAGE } })).data as Message[];
      await store.learnNames(replies.map((reply) => idOfMrn(reply.sender_mrn)));
      this.replies = replies;
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private people() {
    return this.participants.filter((participant) => participant.member_id !== store.me).map((participant) => ({ id: participant.member_id, name: store.nameOf(participant.member_id) }));
  }

  private text(body: string) {
    return textParts(body).map((part) =>
      'text' in part ? part.text : html`<span class=${part.mention === store.me ? 'mention me' : 'mention'}>@${store.names.get(part.mention) ?? 'someone'}</span>`,
    );
  }

  private message(message: Message, inThread: boolean) {
    const sender = idOfMrn(message.sender_mrn);
    const mine = sender === store.me;
    if (this.editing === message.id) {
      return html`<li class="message"><chat-composer label="Edit message" submit-label="Save" cancellable .value=${editableText(message.body ?? '')} .people=${this.people()}
        @chat-send=${(event: CustomEvent<{ body: string }>) => this.edit(message, event)} @chat-cancel=${() => (this.editing = null)}></chat-composer></li>`;
    }
    const reactions = [...message.reactions.map((reaction) => reaction.emoji), ...QUICK.filter((emoji) => !message.reactions.some((reaction) => reaction.emoji === emoji))];
    return html`<li class="message" data-seq=${message.seq}>
      <div class="meta"><strong>${store.nameOf(sender)}</strong><wpk-date class="muted" value=${message.created_at} format="time"></wpk-date>${message.edited_at && !message.deleted ? html`<span class="muted">(edited)</span>` : nothing}</div>
      ${message.deleted
        ? html`<p class="body tombstone">This message was deleted.</p>`
        : html`${message.body ? html`<p class="body">${this.text(message.body)}</p>` : nothing}
          ${message.file ? html`<p class="file">📎 ${message.file.filename} <span class="muted">(${formatBytes(message.file.size_bytes, kit().locale)})</span></p>` : nothing}
          <div class="actions">
            ${reactions.map((emoji) => {
              const reaction = message.reactions.find((held) => held.emoji === emoji);
              const pressed = reaction?.member_mrns.some((mrn) => idOfMrn(mrn) === store.me) ?? false;
              return html`<button type="button" aria-pressed=${pressed ? 'true' : 'false'} @click=${() => this.react(message, emoji)}>${emoji}${reaction ? ` ${reaction.count}` : ''}<span class="wpk-visually-hidden"> reaction</span></button>`;
            })}
            ${inThread ? nothing : html`<button type="button" @click=${() => this.openThread(message)}>${message.reply_count ? `${message.reply_count} ${message.reply_count === 1 ? 'reply' : 'replies'}` : 'Reply in thread'}</button>`}
            ${mine ? html`<button type="button" @click=${() => (this.editing = message.id)}>Edit</button><button type="button" @click=${() => this.deleteMessage(message)}>Delete</button>` : nothing}
          </div>`}
    </li>`;
  }

  private messageList() {
    const firstUnread = this.messages.find((message) => message.seq > this.readFrom && idOfMrn(message.sender_mrn) !== store.me && !message.deleted);
    return html`<ol class="messages" aria-label="Messages" tabindex="0">
      ${repeat(this.messages, (message) => message.id, (message) => html`${message === firstUnread ? html`<li class="divider">New messages</li>` : nothing}${this.message(message, false)}`)}
    </ol>`;
  }

  private threadPanel(thread: Message) {
    return html`<aside class="thread" aria-labelledby="thread-heading">
      <header><h2 id="thread-heading">Thread</h2><button type="button" @click=${() => (this.thread = null)}>Close thread</button></header>
      <ol aria-label="Thread's first message">${this.message(thread, true)}</ol>
      <ol aria-label="Replies">${repeat(this.replies, (reply) => reply.id, (reply) => this.message(reply, true))}</ol>
      ${thread.deleted ? nothing : html`<chat-composer label="Reply in thread" submit-label="Reply" .people=${this.people()} @chat-typing=${() => store.typing(this.chatId)}
        @chat-send=${(event: CustomEvent<{ body: string; text: string }>) => this.send(event, thread.id)}></chat-composer>`}
    </aside>`;
  }

  /** The member's lists, each a checkbox: is this chat in it? */
  private listBoxes(chatId: string) {
    return html`<fieldset class="lists"><legend>Lists</legend>
      ${store.lists.map((list) => html`<label><input type="checkbox" .checked=${list.chat_ids.includes(chatId)}
        @change=${(event: Event) => store.setInList(chatId, list, (event.target as HTMLInputElement).checked)} /> ${list.name}</label>`)}
    </fieldset>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    if (!this.chat) return html`<p role="status">Loading the chat…</p>`;
    const title = store.title(this.chat.id);
    const { present, typing } = store.peopleOf(this.chat.id);
    const names = typing.map((id) => store.nameOf(id));
    return html`<h1>${title}</h1>
      ${this.chat.topic ? html`<p class="topic">${this.chat.topic}</p>` : nothing}
      <p class="people">${this.participants.map((participant, index) => {
        const online = present.includes(participant.member_id);
        return html`${index ? ', ' : ''}<span class=${online ? 'online' : ''}>${store.nameOf(participant.member_id)}${online ? ' (online)' : ''}</span>`;
      })}</p>
      ${this.chat.role && store.lists.length ? this.listBoxes(this.chat.id) : nothing}
      <div class=${this.thread ? 'layout threaded' : 'layout'}>
        <div>
          ${this.messages.length ? this.messageList() : html`<p class="muted">No message yet: say hello.</p>`}
          <p class="typing" role="status">${names.length ? `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} typing…` : ''}</p>
          ${this.chat.role
            ? html`<chat-composer label=${`Message ${title}`} .people=${this.people()} @chat-typing=${() => store.typing(this.chatId)}
                @chat-send=${(event: CustomEvent<{ body: string; text: string }>) => this.send(event, null)}></chat-composer>
              <wpk-upload label="Share a file" .prepare=${this.prepare} .finish=${this.finish}></wpk-upload>`
            : html`<p class="muted">Join this channel to write in it.</p>`}
        </div>
        ${this.thread ? this.threadPanel(this.thread) : nothing}
      </div>`;
  }
}

customElements.define('chat-view', ChatView);
