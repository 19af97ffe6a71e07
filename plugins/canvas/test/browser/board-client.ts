/**
 * A minimal board client for the browser test: it keeps a Yjs replica of one board, sends its
 * local changes to `POST /canvas/boards/{id}/updates` (one request at a time, changes made
 * meanwhile merged into the next), applies everyone's changes from the board's live channel, and
 * relays its cursor as a `signal`. Bundled by the test with esbuild; driven through `window.canvas`.
 */
import * as Y from 'yjs';

const API_VERSION = '2026-11-01';
const headers = { 'content-type': 'application/json', 'x-api-version': API_VERSION };
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (character) => character.charCodeAt(0));

interface Cursor {
  member_id: string;
  x: number;
  y: number;
}

function start(boardId: string) {
  const doc = new Y.Doc();
  const objects = doc.getMap<Y.Map<unknown>>('objects');
  const errors: string[] = [];
  const cursors = new Map<string, Cursor>();
  const pending: Uint8Array[] = [];
  let sending = false;

  async function flush(): Promise<void> {
    if (sending || pending.length === 0) return;
    sending = true;
    const update = Y.mergeUpdates(pending.splice(0));
    try {
      const response = await fetch(`/canvas/boards/${boardId}/updates`, { method: 'POST', headers, body: JSON.stringify({ update: toBase64(update) }) });
      if (!response.ok) errors.push(`${response.status} ${await response.text()}`);
    } catch (error) {
      errors.push(String(error));
    } finally {
      sending = false;
    }
    await flush();
  }

  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === 'remote') return;
    pending.push(update);
    void flush();
  });

  const channel = `canvas/boards/${boardId}`;
  const socket = new WebSocket(`ws://${location.host}/live?api_version=${API_VERSION}`);
  const ready = new Promise<void>((resolve, reject) => {
    socket.onerror = () => reject(new Error('the live socket failed'));
    socket.onmessage = async (message) => {
      const data = JSON.parse(message.data as string);
      if (data.type === 'welcome') socket.send(JSON.stringify({ type: 'subscribe', channel }));
      else if (data.type === 'subscribed') {
        // Subscribed first, then the state: every change after it arrives on the channel.
        const response = await fetch(`/canvas/boards/${boardId}/document`, { headers });
        const body = (await response.json()) as { data: { update: string } };
        Y.applyUpdate(doc, fromBase64(body.data.update), 'remote');
        resolve();
      } else if (data.type === 'event' && data.event === 'doc.updated') Y.applyUpdate(doc, fromBase64(data.data.update), 'remote');
      else if (data.type === 'signal' && data.data?.cursor) cursors.set(data.connection_id, { member_id: data.member_id, ...data.data.cursor });
      else if (data.type === 'error') errors.push(JSON.stringify(data));
    };
  });

  return {
    ready,
    errors,
    addSticky(id: string, x: number, y: number, text: string) {
      doc.transact(() => {
        const note = new Y.Map<unknown>();
        objects.set(id, note);
        note.set('type', 'sticky');
        note.set('x', x);
        note.set('y', y);
        note.set('width', 120);
        note.set('height', 120);
        note.set('text', new Y.Text(text));
      });
    },
    move(id: string, x: number, y: number) {
      doc.transact(() => {
        objects.get(id)?.set('x', x);
        objects.get(id)?.set('y', y);
      });
    },
    type(id: string, index: number, text: string) {
      const target = objects.get(id)?.get('text');
      if (target instanceof Y.Text) target.insert(Math.min(index, target.length), text);
    },
    remove(id: string) {
      objects.delete(id);
    },
    moveCursor(x: number, y: number) {
      socket.send(JSON.stringify({ type: 'signal', channel, data: { cursor: { x, y } } }));
    },
    cursors: () => [...cursors.values()],
    settled: () => !sending && pending.length === 0,
    state: () => {
      const plain = objects.toJSON() as Record<string, unknown>;
      return Object.fromEntries(Object.keys(plain).sort().map((key) => [key, plain[key]]));
    },
  };
}

(window as unknown as { startCanvas: typeof start }).startCanvas = start;
