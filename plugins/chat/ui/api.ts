import { errorText, kit, liveConnection, toast, type LiveEvent, type components } from '@wpk/ui';

/** A chat as the caller sees it (role, favourite mark, unread count). */
export type Chat = components['schemas']['ChatChatForMember'];
/** A message as the API answers it (a deleted one is a tombstone: no body). */
export type Message = components['schemas']['ChatMessage'];
/** One of the member's personal chat lists. */
export type ChatList = components['schemas']['ChatList'];
/** A participant of a chat. */
export type Participant = components['schemas']['ChatParticipant'];

/** What a chat's open view hears from its channel. */
export interface ChatListener {
  event?(event: LiveEvent): void;
  /** The channel's log no longer holds what was missed: load the view again over HTTP. */
  reset?(): void;
  /** Who is typing, or who is present, changed. */
  people?(): void;
}

interface Followed {
  presence: Set<string>;
  typing: Map<string, number>;
  listeners: Set<ChatListener>;
  subscribed: Promise<void>;
}

/** How many chats the list holds and follows live. */
const LISTED = 98;

/** How long "… is typing" stays after the last typing message (the server passes one per 2 s). */
const TYPING_MS = 5_000;

const MENTION = /<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/gi;

/**
 * The member's chats, kept live. Every chat of the list is followed once on the app's one socket
 * (`chat/chats/{id}`), and the member's own channel (`chat/members/{id}`) brings new chats and the
 * unread counts a read elsewhere moved. An open chat's view listens through `listen`.
 */
export class ChatStore extends EventTarget {
  chats: Chat[] = [];
  /** The member's personal lists, in their order. */
  lists: ChatList[] = [];
  /** Member names by id (the shell's directory). */
  readonly names = new Map<string, string>();
  /** The title of each chat (a direct chat is named after the other participant). */
  readonly titles = new Map<string, string>();
  /** The chat whose view is open and shown (its new messages are read, not unread). */
  open: string | null = null;
  loaded: Promise<void> | null = null;
  private readonly followed = new Map<string, Followed>();

  get me(): string {
    return kit().member.id;
  }

  /** Loads the list once and starts following the member's channel. */
  start(): Promise<void> {
    if (!this.loaded) {
      liveConnection().follow(`chat/members/${this.me}`, { event: (event) => this.memberEvent(event), subscribed: ({ reset }) => reset && void this.reload() });
      this.loaded = this.reload();
    }
    return this.loaded;
  }

  /**
   * Reads the chats again (the 98 most recently active: a socket follows at most 100 channels,
   * and the member's own channel and an open chat outside the list take two) and follows each.
   */
  async reload(): Promise<void> {
    try {
      const chats = (await kit().client.chat.getChats({ query: { per_page: LISTED } })).data as Chat[];
      await this.nameChats(chats);
      this.chats = chats;
      for (const chat of chats) this.follow(chat.id);
      this.lists = (await kit().client.chat.getChatsLists({ query: { per_page: 100 } })).data as ChatList[];
    } catch (error) {
      toast(errorText(error), 'danger');
    }
    this.changed();
  }

  chat(id: string): Chat | undefined {
    return this.chats.find((chat) => chat.id === id);
  }

  /** Names of the members by id, asked of the shell for the ones not known yet. */
  async learnNames(ids: string[]): Promise<void> {
    const unknown = [...new Set(ids)].filter((id) => !this.names.has(id));
    if (unknown.length === 0) return;
    for (const member of await kit().bridge.members(unknown)) this.names.set(member.id, member.name);
  }

  nameOf(id: string): string {
    return id === this.me ? 'You' : (this.names.get(id) ?? 'A former member');
  }

  private async nameChats(chats: Chat[]): Promise<void> {
    const unnamed = chats.filter((chat) => !chat.name && !this.titles.has(chat.id));
    const others = new Map<string, string[]>();
    for (const chat of unnamed) {
      const participants = (await kit().client.chat.getChatsByIdParticipants({ params: { id: chat.id }, query: { per_page: 100 } })).data as Participant[];
      others.set(chat.id, participants.map((participant) => participant.member_id).filter((id) => id !== this.me));
    }
    await this.learnNames([...others.values()].flat());
    for (const chat of chats) {
      if (chat.name) this.titles.set(chat.id, chat.type === 'channel' ? `#${chat.name}` : chat.name);
      else if (others.has(chat.id)) this.titles.set(chat.id, others.get(chat.id)!.map((id) => this.nameOf(id)).join(', ') || 'Just you');
    }
  }

  title(id: string): string {
    return this.titles.get(id) ?? 'Chat';
  }

  /** Follows a chat's channel (once); resolves when the first subscription answered. */
  follow(chatId: string): Followed {
    const followed = this.followed.get(chatId);
    if (followed) return followed;
    let ready: () => void = () => undefined;
    const state: Followed = { presence: new Set(), typing: new Map(), listeners: new Set(), subscribed: new Promise((resolve) => (ready = resolve)) };
    this.followed.set(chatId, state);
    liveConnection().follow(`chat/chats/${chatId}`, {
      subscribed: ({ reset, presence }) => {
        state.presence = new Set(presence);
        ready();
        if (reset) for (const listener of state.listeners) listener.reset?.();
        this.people(state);
      },
      event: (event) => {
        // A message sent ends its sender's "typing…".
        if (event.event === 'message.sent' && state.typing.delete(idOfMrn(String(event.data.sender_mrn)))) this.people(state);
        this.chatEvent(chatId, event);
        for (const listener of state.listeners) listener.event?.(event);
      },
      typing: (memberId) => {
        state.typing.set(memberId, Date.now() + TYPING_MS);
        this.people(state);
        setTimeout(() => this.people(state), TYPING_MS + 50);
      },
      presence: (memberId, presence) => {
        if (presence === 'online') state.presence.add(memberId);
        else state.presence.delete(memberId);
        this.people(state);
      },
      lost: () => {
        ready();
        this.followed.delete(chatId);
        this.chats = this.chats.filter((chat) => chat.id !== chatId);
        this.changed();
      },
    });
    return state;
  }

  /** A view's listener on a chat's channel; answers a function that stops it. */
  listen(chatId: string, listener: ChatListener): { ready: Promise<void>; stop: () => void } {
    const state = this.follow(chatId);
    state.listeners.add(listener);
    // A subscription the server refused without a word for this listener (a 429) must not hold the view back.
    const ready = Promise.race([state.subscribed, new Promise<void>((resolve) => setTimeout(resolve, 5_000))]);
    return { ready, stop: () => state.listeners.delete(listener) };
  }

  /** Who has the chat open now, and who of them is typing (not the member themselves). */
  peopleOf(chatId: string): { present: string[]; typing: string[] } {
    const state = this.followed.get(chatId);
    if (!state) return { present: [], typing: [] };
    const now = Date.now();
    return { present: [...state.presence], typing: [...state.typing].filter(([id, until]) => until > now && id !== this.me).map(([id]) => id) };
  }

  /** Tells the chat's other participants the member is typing. */
  typing(chatId: string): void {
    liveConnection().typing(`chat/chats/${chatId}`);
  }

  private people(state: Followed): void {
    for (const listener of state.listeners) listener.people?.();
  }

  private chatEvent(chatId: string, event: LiveEvent): void {
    const chat = this.chat(chatId);
    if (!chat) return;
    if (event.event === 'message.sent') {
      const message = event.data as unknown as Message;
      // Counted once: a message at or below the chat's last seq was in the list as it was read.
      if (message.parent_id || message.seq <= chat.last_seq) return;
      chat.last_seq = message.seq;
      chat.last_message_at = message.created_at;
      if (idOfMrn(message.sender_mrn) !== this.me && !(this.open === chatId && document.visibilityState === 'visible')) chat.unread_count += 1;
      this.chats = [chat, ...this.chats.filter((other) => other.id !== chatId)];
    } else if (event.event === 'chat.updated') {
      const changed = event.data as unknown as Chat;
      Object.assign(chat, { name: changed.name, topic: changed.topic });
      if (changed.name) this.titles.set(chatId, chat.type === 'channel' ? `#${changed.name}` : changed.name);
    } else if (event.event === 'chat.deleted') {
      this.chats = this.chats.filter((other) => other.id !== chatId);
    } else {
      return;
    }
    this.changed();
  }

  private memberEvent(event: LiveEvent): void {
    if (event.event === 'chat.created' || event.event === 'chat.joined') {
      void this.reload();
    } else if (event.event === 'chat.read') {
      const chat = this.chat(String(event.data.chat_id));
      if (chat) {
        chat.unread_count = Number(event.data.unread_count);
        this.changed();
      }
    }
  }

  /** Sets a chat's favourite mark for the member. */
  async setFavourite(chat: Chat, favourite: boolean): Promise<void> {
    try {
      if (favourite) await kit().client.chat.putChatsByIdFavourite({ params: { id: chat.id } });
      else await kit().client.chat.deleteChatsByIdFavourite({ params: { id: chat.id } });
      chat.favourite = favourite;
      this.changed();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Makes a personal list; answers whether it was made (a refusal is shown as a toast). */
  async createList(name: string): Promise<boolean> {
    try {
      this.lists = [...this.lists, (await kit().client.chat.postChatsLists({ body: { name } })).data as ChatList];
      this.changed();
      return true;
    } catch (error) {
      toast(errorText(error), 'danger');
      return false;
    }
  }

  /** Puts a chat in one of the member's lists, or takes it out. */
  async setInList(chatId: string, list: ChatList, inList: boolean): Promise<void> {
    const params = { id: chatId, list_id: list.id };
    try {
      const answer = inList ? await kit().client.chat.putChatsByIdListsByListId({ params }) : await kit().client.chat.deleteChatsByIdListsByListId({ params });
      this.lists = this.lists.map((held) => (held.id === list.id ? (answer.data as ChatList) : held));
      this.changed();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private changed(): void {
    this.dispatchEvent(new Event('change'));
  }
}

/** The app's one store. */
export const store = new ChatStore();

/** A message's text split into plain parts and mentions (`<@member_id>`). */
export function textParts(body: string): Array<{ text: string } | { mention: string }> {
  const parts: Array<{ text: string } | { mention: string }> = [];
  let at = 0;
  for (const match of body.matchAll(MENTION)) {
    if (match.index > at) parts.push({ text: body.slice(at, match.index) });
    parts.push({ mention: match[1].toLowerCase() });
    at = match.index + match[0].length;
  }
  if (at < body.length) parts.push({ text: body.slice(at) });
  return parts;
}

/** A stored text as the composer shows it: `<@id>` as `@Name`. */
export function editableText(body: string): string {
  return textParts(body).map((part) => ('text' in part ? part.text : `@${store.names.get(part.mention) ?? part.mention}`)).join('');
}

/** What the composer holds as the API takes it: `@Name` of a participant as `<@id>` (longest names first). */
export function wireText(text: string, participants: Array<{ id: string; name: string }>): string {
  let wire = text;
  for (const person of [...participants].sort((a, b) => b.name.length - a.name.length)) wire = wire.split(`@${person.name}`).join(`<@${person.id}>`);
  return wire;
}

/** The id of a member's MRN. */
export const idOfMrn = (mrn: string): string => mrn.slice(mrn.lastIndexOf(':') + 1);
