import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { liveConnection } from '../components/live-list.js';
import type { LiveConnection } from '../live.js';

/**
 * A Yjs document kept in step with the app's server (docs/ui.md, "Collaborative documents"): the
 * browser half of the SDK's `defineCollabDocuments`, shared by `<wpk-collab-editor>` (rich text)
 * and any app whose document is not rich text (Slides' decks). It follows the document's live
 * channel first, then loads the whole state (`transport.load`), then applies each `doc.updated`
 * (`{ update }`, base64) the channel carries; local edits (any transaction whose origin is not
 * `REMOTE`) go to `transport.send` one merged update at a time (the transactions an edit leads to,
 * observers' included, always in one update). An edit made while the server or
 * the socket is away stays queued (`status` `offline`) and is sent again; after a reconnect the
 * state is loaded again and whatever the server lacks is sent, merged by Yjs with everyone's.
 * Who is here (and, for an editor, carets and selections) travel as the channel's signals, a
 * y-protocols awareness update under `awareness`.
 *
 * ```ts
 * const session = new CollabSession({ onChange: () => this.requestUpdate(), onLoad: () => this.draw() });
 * session.start({ channel: `slides/decks/${id}`, load, send }, { id, name, color });
 * session.doc.getArray('slides'); // edit in session.doc.transact(...); remote changes: session.doc.on('update', …)
 * ```
 */
export interface CollabTransport {
  /** The live channel the document's updates come on (`papers/papers/{id}`): its `doc.updated` events carry `{ update }`. */
  channel: string;
  /** The whole document as one Yjs update (base64), and whether this member may edit it. */
  load(): Promise<{ update: string; editable: boolean }>;
  /** Sends one update (base64) to the server; a rejection keeps it queued for another try. */
  send(update: string): Promise<void>;
  /** Every other event of the channel (a comment's `comment.created`, …), for the screen around the editor. */
  event?(name: string, data: Record<string, unknown>): void;
}

/** Who is editing: shown by their caret and in the list of who is here. */
export interface CollabUser {
  id: string;
  name: string;
  color: string;
}

/** `loading`, `saved`, `saving` or `offline` (edits queued). */
export type CollabStatus = 'loading' | 'saved' | 'saving' | 'offline';

/** The origin of transactions that came from the server (not sent back). */
export const REMOTE = 'remote';

export const toBase64 = (bytes: Uint8Array): string => {
  let text = '';
  for (let index = 0; index < bytes.length; index += 0x8000) text += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(text);
};
export const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** The words a status reads as. */
export const statusText = (status: CollabStatus): string => (status === 'offline' ? 'Offline: edits kept' : status === 'saving' ? 'Saving…' : status === 'saved' ? 'Saved' : 'Loading…');

export interface CollabSessionOptions {
  /** The document (default: a new one). */
  doc?: Y.Doc;
  /** Called when `status`, `editable` or `here` change (a Lit element's requestUpdate). */
  onChange?(): void;
  /** Called after each load of the whole state (the first, and after every reconnect). */
  onLoad?(editable: boolean, first: boolean): void;
}

export class CollabSession {
  readonly doc: Y.Doc;
  readonly awareness: Awareness;
  status: CollabStatus = 'loading';
  editable = false;
  /** Who is here (this member first). */
  here: CollabUser[] = [];
  private transport: CollabTransport | null = null;
  private user: CollabUser = { id: '', name: 'Me', color: '#1d4ed8' };
  private live: LiveConnection | null = null;
  private unfollow: (() => void) | null = null;
  private pending: Uint8Array[] = [];
  private sending = false;
  private loaded = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private peers = new Map<string, number>();
  private readonly options: CollabSessionOptions;

  constructor(options: CollabSessionOptions = {}) {
    this.options = options;
    this.doc = options.doc ?? new Y.Doc();
    this.awareness = new Awareness(this.doc);
    // A local edit is sent once Yjs has run every transaction it led to (an observer's follow-up,
    // as the editor's empty text of a new paragraph), as one update: a peer never receives the
    // first without the rest.
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE) this.pending.push(update);
    });
    this.doc.on('afterAllTransactions', () => void this.flush());
    this.awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      if (origin === 'local') this.announce();
      if (added.length + updated.length + removed.length > 0) this.refreshHere();
    });
  }

  /** Follows the channel, then loads the document; `user` is who others see here. */
  start(transport: CollabTransport, user: CollabUser): void {
    this.transport = transport;
    this.user = user;
    this.awareness.setLocalStateField('user', { name: user.name, color: user.color, id: user.id });
    this.refreshHere();
    this.live = liveConnection();
    this.unfollow = this.live.follow(transport.channel, {
      subscribed: () => void this.load(),
      event: (event) => {
        if (event.event === 'doc.updated' && typeof event.data.update === 'string') Y.applyUpdate(this.doc, fromBase64(event.data.update), REMOTE);
        else if (event.event !== 'doc.updated') transport.event?.(event.event, event.data as Record<string, unknown>);
      },
      signal: (_member, data, connection) => {
        if (typeof data.awareness !== 'string') return;
        applyAwarenessUpdate(this.awareness, fromBase64(data.awareness), REMOTE);
        const first = !this.peers.has(connection);
        this.peers.set(connection, Date.now());
        // A newcomer learns of this member at once, not at the next renewal.
        if (first) this.announce();
      },
      presence: (_member, state) => {
        if (state === 'online') this.announce();
      },
    });
  }

  /** Leaves: this member is gone for the others, the channel unfollowed. */
  stop(): void {
    removeAwarenessStates(this.awareness, [this.doc.clientID], 'local');
    this.unfollow?.();
    this.unfollow = null;
    if (this.retry) clearTimeout(this.retry);
  }

  private announce(): void {
    if (this.transport) this.live?.signal(this.transport.channel, { awareness: toBase64(encodeAwarenessUpdate(this.awareness, [this.doc.clientID])) });
  }

  private changed(): void {
    this.options.onChange?.();
  }

  /** Loads (again, after a reconnect) the whole state, then sends what is queued. */
  private async load(): Promise<void> {
    if (!this.transport) return;
    const loaded = await this.transport.load();
    Y.applyUpdate(this.doc, fromBase64(loaded.update), REMOTE);
    this.editable = loaded.editable;
    const first = !this.loaded;
    this.loaded = true;
    this.options.onLoad?.(loaded.editable, first);
    // Whatever this replica has that the server may not (edits made offline) goes once more.
    if (loaded.editable) {
      const missing = Y.encodeStateAsUpdate(this.doc, Y.encodeStateVectorFromUpdate(fromBase64(loaded.update)));
      if (missing.length > 2) {
        this.pending.push(missing);
        void this.flush();
      }
    }
    if (this.pending.length === 0) this.status = 'saved';
    this.changed();
  }

  /** Sends the queued updates, one merged update at a time; a failure keeps them and tries again. */
  private async flush(): Promise<void> {
    if (this.sending || this.pending.length === 0 || !this.transport || !this.editable) return;
    this.sending = true;
    this.status = 'saving';
    this.changed();
    const update = this.pending.length === 1 ? this.pending[0] : Y.mergeUpdates(this.pending);
    this.pending = [];
    try {
      await this.transport.send(toBase64(update));
      this.status = this.pending.length === 0 ? 'saved' : 'saving';
    } catch {
      this.pending.unshift(update);
      this.status = 'offline';
      this.retry ??= setTimeout(() => {
        this.retry = null;
        void this.flush();
      }, 1500);
    } finally {
      this.sending = false;
    }
    this.changed();
    if (this.pending.length > 0 && this.status !== 'offline') void this.flush();
  }

  private refreshHere(): void {
    const users = new Map<string, CollabUser>();
    users.set(this.user.id, this.user);
    for (const [client, state] of this.awareness.getStates()) {
      const user = (state as { user?: CollabUser }).user;
      if (client !== this.doc.clientID && user?.id) users.set(user.id, user);
    }
    this.here = [...users.values()];
    this.changed();
  }
}
