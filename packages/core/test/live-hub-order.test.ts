import test, { type ExecutionContext } from 'ava';
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { LiveHub, hashSecret } from '../src/live/index.js';
import { LiveLog, type LiveNote } from '../src/live/log.js';
import { keyedWorkspace, startKeysRuntime } from './helpers/keys.js';
import type { TestRuntime } from './helpers/runtime.js';

// The hub of one process: a socket that subscribes to a channel while a note of that channel is
// still queued on this process must not make the channel's earlier subscribers miss that note
// (found by bench/cluster.ts: a socket that reconnected to another server took an event away from
// the socket already there). The notes are captured and handed to the hub by the test, so the
// order "event committed → second socket subscribes → note arrives" is exact, not timed.

/** The socket side the hub uses (`ws`'s WebSocket): what it sends is kept, parsed. */
class Socket extends EventEmitter {
  readyState = 1;
  /** What `ws` has queued for the peer and not yet written: a test sets it to stand for a reader that stalls. */
  bufferedAmount = 0;
  closedWith: number | null = null;
  readonly sent: Array<Record<string, any>> = [];
  private waiters: Array<() => void> = [];
  send(text: string): void {
    this.sent.push(JSON.parse(text));
    for (const wake of this.waiters.splice(0)) wake();
  }
  ping(): void {}
  close(code?: number): void {
    this.readyState = 3;
    this.closedWith = code ?? 1005;
  }
  terminate(): void {
    this.readyState = 3;
  }
  /** Sends a client message to the hub. */
  say(message: object): void {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }
  /** Resolves with the first message sent that matches (already sent, or the next ones). */
  async next(match: (message: Record<string, any>) => boolean): Promise<Record<string, any>> {
    for (;;) {
      const found = this.sent.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
  events(): string[] {
    return this.sent.filter((message) => message.type === 'event').map((message) => `${message.id}:${message.data.n}`);
  }
}

let env: TestRuntime;
test.before(async () => {
  env = await startKeysRuntime();
});
test.after.always(async () => env?.close());

/**
 * A hub of its own on a workspace of the shared runtime, with notify off (each commit's notes go to
 * `captured`, handed to the hub by the test), one channel kind, and `open` to subscribe a socket.
 */
async function hubOn(t: ExecutionContext, subdomain: string, channel: string, sendBufferLimit?: number) {
  const workspace = await keyedWorkspace(env, subdomain);
  const { runtime } = env;
  const sequelize = runtime.db.sequelize;
  const captured: LiveNote[] = [];
  const log = new LiveLog(sequelize, false, (note) => captured.push(note));
  const hub = new LiveHub(sequelize, log, runtime.logger, () => new Date(), sendBufferLimit);
  hub.declareChannels('test', { rooms: { permission: 'test.rooms.read', platform: true } });
  const member = { id: workspace.ownerId, name: 'Owner', email: `owner@${workspace.subdomain}.test`, platformRole: 'owner' as const };
  const live = { id: workspace.id, subdomain: workspace.subdomain, name: workspace.subdomain, plan: 'free' };
  const open = async (): Promise<Socket> => {
    const socket = new Socket();
    hub.accept(socket as unknown as WebSocket, live, { kind: 'api_key', hash: hashSecret(workspace.ownerKey) }, member);
    socket.say({ type: 'subscribe', channel });
    t.like(await socket.next((message) => message.type === 'subscribed' || message.type === 'error'), { type: 'subscribed', channel });
    return socket;
  };
  return { workspace, log, hub, captured, open };
}

test('a socket subscribing while a note is queued does not take that event from the sockets already on the channel', async (t) => {
  const channel = 'test/rooms/r1';
  const { workspace, log, hub, captured, open } = await hubOn(t, 'liveorder', channel);
  // The logged events' notes (presence signals are captured too, and are not what this is about).
  const noteOf = (id: string) => captured.splice(captured.findIndex((note) => note.id === id), 1)[0];
  const publish = (n: number) => log.publish(workspace.id, [{ channel, type: 'said', data: { n }, audience: null, revoke: [] }]);

  const first = await open();
  await publish(1);
  const second = await open(); // subscribes after event 1 committed, before its note reached the hub
  t.like(second.sent.find((message) => message.type === 'subscribed'), { last_id: '1' });
  hub.receive(noteOf('1'));
  await publish(2);
  hub.receive(noteOf('2'));
  await first.next((message) => message.type === 'event' && message.id === '2');
  await second.next((message) => message.type === 'event' && message.id === '2');

  t.deepEqual(first.events(), ['1:1', '2:2'], 'the first socket hears both events, in order');
  t.deepEqual(second.events(), ['2:2'], 'the second hears what came after its last_id, once');
  await hub.stop();
});

test('a socket that leaves more than the send-buffer limit unread is closed as too slow; the others hear every event, in order, meanwhile', async (t) => {
  const channel = 'test/rooms/r2';
  const { workspace, log, hub, captured, open } = await hubOn(t, 'liveslow', channel, 64 * 1024);
  const fast = await open();
  const slow = await open();
  const atLimit = await open();
  t.is(hub.size, 3);
  // The slow reader has more than 64 KiB waiting for it; the other exactly the limit (still allowed).
  slow.bufferedAmount = 64 * 1024 + 1;
  atLimit.bufferedAmount = 64 * 1024;
  const before = slow.sent.length;
  for (const n of [1, 2, 3]) {
    await log.publish(workspace.id, [{ channel, type: 'said', data: { n }, audience: null, revoke: [] }]);
    for (const note of captured.splice(0)) if (note.id !== undefined) hub.receive(note);
  }
  await fast.next((message) => message.type === 'event' && message.id === '3');
  await atLimit.next((message) => message.type === 'event' && message.id === '3');
  t.deepEqual(fast.events(), ['1:1', '2:2', '3:3']);
  t.deepEqual(atLimit.events(), ['1:1', '2:2', '3:3']);
  t.deepEqual(slow.events(), [], 'nothing more is queued for the slow socket');
  t.is(slow.sent.length, before);
  t.is(slow.closedWith, 4408);
  t.is(fast.closedWith, null);
  t.is(hub.size, 2, 'the slow socket left the hub');
  t.is(hub.shed, 1);
  await hub.stop();
});
