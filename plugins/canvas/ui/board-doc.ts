/**
 * A board's Yjs replica in the page: the root map `objects` holds one Y.Map per object (the
 * server's model, src/services/objects-model.ts), `text` a Y.Text. Local changes go to
 * `POST /canvas/boards/{id}/updates` one request at a time (changes made meanwhile are merged into
 * the next; one that did not reach the server is kept and sent again); everyone's changes arrive as `doc.updated` on the
 * live channel `canvas/boards/{id}`, which is subscribed before the whole state is read, so nothing
 * falls in between. Cursors travel as the channel's signals.
 */
import * as Y from 'yjs';
import { errorText, isApiError, kit, liveConnection } from '@wpk/ui';

/** How long a change that could not be sent waits before it is sent again. */
const RETRY_MS = 2000;

export type ObjectType = 'sticky' | 'shape' | 'text' | 'connector' | 'image';

/** An object as the surface draws it (the fields the whiteboard uses). */
export interface BoardObject {
  id: string;
  type: ObjectType;
  x: number;
  y: number;
  width: number;
  height: number;
  z: number;
  text: string;
  color: string;
  stroke: string;
  shape: string;
  font_size: number;
  end_x: number;
  end_y: number;
  from_id: string | null;
  to_id: string | null;
  file_key: string | null;
  alt: string;
}

/** Another member's pointer on the board, in board coordinates. */
export interface Cursor {
  connection_id: string;
  member_id: string;
  x: number;
  y: number;
}

const toBase64 = (bytes: Uint8Array): string => {
  let text = '';
  for (let index = 0; index < bytes.length; index += 0x8000) text += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(text);
};
const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (character) => character.charCodeAt(0));

const DEFAULTS: Record<ObjectType, Partial<BoardObject>> = {
  sticky: { color: '#fff59d', width: 160, height: 160 },
  shape: { color: '#ffffff', stroke: '#1f2933', shape: 'rectangle', width: 180, height: 120 },
  text: { color: '#1f2933', font_size: 20, width: 200, height: 40 },
  connector: { color: '#1f2933' },
  image: { width: 200, height: 150 },
};

/** A fresh object id (the server accepts 1-100 letters, digits, - or _). */
export const newObjectId = (): string => crypto.randomUUID().replaceAll('-', '').slice(0, 16);

/**
 * A pointer goes out at most this often: the server relays one signal per 50 ms per socket and
 * channel and drops the rest, and the margin keeps a frame that arrives early from being dropped.
 */
const CURSOR_EVERY_MS = 60;

export class BoardDoc {
  readonly doc = new Y.Doc();
  readonly objects = this.doc.getMap<Y.Map<unknown>>('objects');
  readonly errors: string[] = [];
  readonly ready: Promise<void>;
  private readonly cursorsByConnection = new Map<string, Cursor>();
  private readonly pending: Uint8Array[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly channel: string;
  private sending = false;
  private cursorNext: { x: number; y: number } | null = null;
  private cursorSentAt = 0;
  private cursorTimer: ReturnType<typeof setTimeout> | null = null;
  private stop: () => void = () => {};
  /** Told the board's new name when someone renames it. */
  renamed: ((name: string) => void) | null = null;

  constructor(readonly boardId: string) {
    this.channel = `canvas/boards/${boardId}`;
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== 'remote') {
        this.pending.push(update);
        void this.flush();
      }
      this.changed();
    });
    this.ready = new Promise((resolve) => {
      this.stop = liveConnection().follow(this.channel, {
        // Subscribed (again) first, then the whole state: every later change comes on the channel.
        subscribed: () => void this.load().then(resolve),
        event: (event) => {
          if (event.event === 'doc.updated' && typeof event.data.update === 'string') Y.applyUpdate(this.doc, fromBase64(event.data.update), 'remote');
          else if (event.event === 'board.updated' && typeof event.data.name === 'string') this.renamed?.(event.data.name);
          else if (event.event === 'board.deleted') this.fail('This board was deleted: what is on the screen is no longer kept.');
        },
        signal: (memberId, data, connectionId) => {
          const cursor = data.cursor as { x?: unknown; y?: unknown } | undefined;
          if (typeof cursor?.x === 'number' && typeof cursor.y === 'number') this.cursorsByConnection.set(connectionId, { connection_id: connectionId, member_id: memberId, x: cursor.x, y: cursor.y });
          else if (data.left === true) this.cursorsByConnection.delete(connectionId);
          this.changed();
        },
        presence: () => this.changed(),
        lost: (error) => this.fail(error),
      });
    });
  }

  /** Calls `listener` after every change (local, remote, a cursor); answers how to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    if (this.cursorTimer !== null) clearTimeout(this.cursorTimer);
    liveConnection().signal(this.channel, { left: true });
    this.stop();
    this.listeners.clear();
    this.doc.destroy();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private fail(error: unknown): void {
    this.errors.push(errorText(error));
    this.changed();
  }

  private async load(): Promise<void> {
    try {
      const answer = await kit().client.request<{ data: { update: string } }>('GET', `/canvas/boards/${this.boardId}/document`);
      Y.applyUpdate(this.doc, fromBase64(answer.data.update), 'remote');
    } catch (error) {
      this.fail(error);
    }
  }

  private async flush(): Promise<void> {
    if (this.sending || this.pending.length === 0) return;
    this.sending = true;
    const update = Y.mergeUpdates(this.pending.splice(0));
    let retry = false;
    try {
      await kit().client.request('POST', `/canvas/boards/${this.boardId}/updates`, { body: { update: toBase64(update) } });
    } catch (error) {
      // A refusal (4xx) is the server's answer for good; anything else (offline, 5xx) is sent again.
      retry = !(isApiError(error) && error.status < 500);
      if (retry) this.pending.unshift(update);
      this.fail(error);
    } finally {
      this.sending = false;
      this.changed();
    }
    if (retry) setTimeout(() => void this.flush(), RETRY_MS);
    else await this.flush();
  }

  /** Nothing of this page's is waiting to reach the server. */
  settled(): boolean {
    return !this.sending && this.pending.length === 0;
  }

  /** The objects, bottom to top (z, then id), with each type's defaults filled in. */
  list(): BoardObject[] {
    const records: BoardObject[] = [];
    for (const [id, map] of this.objects.entries()) {
      if (!(map instanceof Y.Map)) continue;
      const plain = map.toJSON() as Partial<BoardObject>;
      const type = plain.type;
      if (!type || !(type in DEFAULTS) || typeof plain.x !== 'number' || typeof plain.y !== 'number') continue;
      records.push({ width: 0, height: 0, z: 0, text: '', color: '#1f2933', stroke: '#1f2933', shape: 'rectangle', font_size: 20, end_x: plain.x, end_y: plain.y, from_id: null, to_id: null, file_key: null, alt: '', ...DEFAULTS[type], ...plain, id } as BoardObject);
    }
    return records.sort((a, b) => a.z - b.z || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The document's objects as plain JSON, by sorted id (what the server's document reads as). */
  state(): Record<string, unknown> {
    const plain = this.objects.toJSON() as Record<string, unknown>;
    return Object.fromEntries(Object.keys(plain).sort().map((key) => [key, plain[key]]));
  }

  private topZ(): number {
    let top = 0;
    for (const map of this.objects.values()) top = Math.max(top, Number(map.get('z') ?? 0));
    return top + 1;
  }

  /** Adds an object on top; answers its id. `text` becomes a Y.Text. */
  add(type: ObjectType, fields: Record<string, unknown>, id = newObjectId()): string {
    this.doc.transact(() => {
      const map = new Y.Map<unknown>();
      this.objects.set(id, map);
      map.set('type', type);
      const { width, height } = DEFAULTS[type];
      const all: Record<string, unknown> = type === 'connector' ? { z: this.topZ(), ...fields } : { width, height, z: this.topZ(), ...fields };
      for (const [field, value] of Object.entries(all)) {
        if (value === undefined) continue;
        map.set(field, field === 'text' ? new Y.Text(String(value)) : value);
      }
    });
    return id;
  }

  /** A connector from one object to another, its ends drawn at their centres. */
  connect(fromId: string, toId: string): string | null {
    const from = this.centre(fromId);
    const to = this.centre(toId);
    if (!from || !to || fromId === toId) return null;
    return this.add('connector', { x: from.x, y: from.y, end_x: to.x, end_y: to.y, from_id: fromId, to_id: toId, arrow: 'end' });
  }

  /** The centre of an object (null when it is not on the board). */
  centre(id: string): { x: number; y: number } | null {
    const object = this.list().find((one) => one.id === id);
    if (!object) return null;
    return { x: object.x + object.width / 2, y: object.y + object.height / 2 };
  }

  /** Moves an object to (x, y); connectors bound to it follow. */
  move(id: string, x: number, y: number): void {
    const map = this.objects.get(id);
    if (!map) return;
    const [rx, ry] = [Math.round(x), Math.round(y)];
    this.doc.transact(() => {
      map.set('x', rx);
      map.set('y', ry);
      this.followConnectors(id);
    });
  }

  private followConnectors(id: string): void {
    const centre = this.centre(id);
    if (!centre) return;
    const [x, y] = [Math.round(centre.x), Math.round(centre.y)];
    for (const map of this.objects.values()) {
      if (map.get('type') !== 'connector') continue;
      if (map.get('from_id') === id) {
        map.set('x', x);
        map.set('y', y);
      }
      if (map.get('to_id') === id) {
        map.set('end_x', x);
        map.set('end_y', y);
      }
    }
  }

  /** Inserts `text` at `index` of an object's text (clamped), keeping others' concurrent typing. */
  type(id: string, index: number, text: string): void {
    const target = this.objects.get(id)?.get('text');
    if (target instanceof Y.Text) target.insert(Math.min(index, target.length), text);
  }

  /** Replaces an object's text by `next` with the smallest edit (a common prefix and suffix kept). */
  setText(id: string, next: string): void {
    const map = this.objects.get(id);
    if (!map) return;
    const target = map.get('text');
    if (!(target instanceof Y.Text)) {
      map.set('text', new Y.Text(next));
      return;
    }
    const current = target.toString();
    if (current === next) return;
    let start = 0;
    while (start < current.length && start < next.length && current[start] === next[start]) start++;
    let end = 0;
    while (end < current.length - start && end < next.length - start && current[current.length - 1 - end] === next[next.length - 1 - end]) end++;
    this.doc.transact(() => {
      target.delete(start, current.length - start - end);
      target.insert(start, next.slice(start, next.length - end));
    });
  }

  /** Sets plain fields of an object (a colour, a size). */
  set(id: string, fields: Record<string, unknown>): void {
    const map = this.objects.get(id);
    if (!map) return;
    this.doc.transact(() => {
      for (const [field, value] of Object.entries(fields)) map.set(field, value);
      this.followConnectors(id);
    });
  }

  /** Removes an object; connectors bound to it are unbound and stay where they were drawn (as the server does). */
  remove(id: string): void {
    this.doc.transact(() => {
      this.objects.delete(id);
      for (const [, map] of this.objects.entries()) {
        if (map.get('from_id') === id) map.delete('from_id');
        if (map.get('to_id') === id) map.delete('to_id');
      }
    });
  }

  /**
   * Shows this member's pointer (board coordinates) to the board's other pages: at most one
   * position per CURSOR_EVERY_MS, and always the last one (where the pointer stopped), sent when
   * its interval is over.
   */
  moveCursor(x: number, y: number): void {
    this.cursorNext = { x: Math.round(x), y: Math.round(y) };
    if (this.cursorTimer !== null) return;
    const wait = this.cursorSentAt + CURSOR_EVERY_MS - Date.now();
    if (wait <= 0) this.sendCursor();
    else this.cursorTimer = setTimeout(() => this.sendCursor(), wait);
  }

  private sendCursor(): void {
    this.cursorTimer = null;
    if (!this.cursorNext) return;
    liveConnection().signal(this.channel, { cursor: this.cursorNext });
    this.cursorNext = null;
    this.cursorSentAt = Date.now();
  }

  cursors(): Cursor[] {
    return [...this.cursorsByConnection.values()];
  }
}
