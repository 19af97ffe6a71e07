import { BRIDGE_PROTOCOL, type BridgeInit, type BridgePush, type BridgeReply, type BridgeRequests, type BridgeRequestType } from './protocol.js';

/**
 * The app's end of the bridge (docs/ui.md): what a front-end in its sandboxed frame uses to reach
 * the shell. `await connectBridge()` once, then `bridge.token` for API calls (kept fresh by the
 * shell), `bridge.navigate('/boards/1')`, `bridge.toast('Saved')`, `await bridge.confirm(...)`,
 * `await bridge.pickMembers()`.
 */
export class Bridge extends EventTarget {
  private next = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private current: BridgeInit;

  constructor(
    private readonly port: MessagePort,
    init: BridgeInit,
  ) {
    super();
    this.current = init;
    port.onmessage = (event: MessageEvent) => this.receive(event.data);
  }

  /** What the shell said when the bridge opened (the token as it is now). */
  get init(): BridgeInit {
    return this.current;
  }

  /** The app's current token. */
  get token(): string {
    return this.current.token;
  }

  /** The member's permission keys in the app, as of the last token (renewed with it). */
  get permissions(): readonly string[] {
    return this.current.permissions ?? [];
  }

  /** The app's path in the shell (`/boards/42?lane=Done`). */
  get route(): string {
    return this.current.route;
  }

  private receive(message: unknown): void {
    if (!message || typeof message !== 'object') return;
    if ('id' in message) {
      const reply = message as BridgeReply;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(reply.error));
      return;
    }
    const push = message as BridgePush;
    if (push.type === 'route') {
      this.current = { ...this.current, route: push.route };
      this.dispatchEvent(new CustomEvent('route', { detail: push.route }));
    } else if (push.type === 'token') {
      this.current = { ...this.current, token: push.token, expires_at: push.expires_at, permissions: Array.isArray(push.permissions) ? push.permissions : this.current.permissions };
      this.dispatchEvent(new CustomEvent('token'));
    }
  }

  /** Sends one request to the shell and waits for its answer. */
  request<K extends BridgeRequestType>(type: K, input: BridgeRequests[K]['input']): Promise<BridgeRequests[K]['output']> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.port.postMessage({ id, type, input });
    });
  }

  /** Shows another path of this app (pushes it on the shell's history unless `replace`). */
  navigate(path: string, options: { replace?: boolean } = {}): Promise<null> {
    this.current = { ...this.current, route: path };
    return this.request('navigate', { path, replace: options.replace });
  }

  /** Leaves the app for a platform page or another app (`/app/files/`). */
  open(href: string): Promise<null> {
    return this.request('open', { href });
  }

  /** Sets the tab's title. */
  title(title: string): Promise<null> {
    return this.request('title', { title });
  }

  /** A short message in the shell's toast stack. */
  toast(message: string, variant: 'success' | 'danger' | 'neutral' = 'neutral'): Promise<null> {
    return this.request('toast', { message, variant });
  }

  /** A modal question in the shell; true when the person confirms. */
  confirm(input: BridgeRequests['confirm']['input']): Promise<boolean> {
    return this.request('confirm', input);
  }

  /** The shell's member picker. */
  pickMembers(input: BridgeRequests['pick-members']['input'] = {}): Promise<BridgeRequests['pick-members']['output']> {
    return this.request('pick-members', input);
  }

  /** Members by id, with their names (for showing assignees, authors): unknown ids are left out. */
  members(ids: string[]): Promise<BridgeRequests['members']['output']> {
    return this.request('members', { ids });
  }

  /** Joined members whose name or address starts with `q` (what is typed after `@` in an editor). */
  findMembers(q: string, limit?: number): Promise<BridgeRequests['find-members']['output']> {
    return this.request('find-members', limit === undefined ? { q } : { q, limit });
  }

  /** The shell's file picker (the Files app's search). */
  pickFiles(input: BridgeRequests['pick-files']['input'] = {}): Promise<BridgeRequests['pick-files']['output']> {
    return this.request('pick-files', input);
  }

  /** A record by its MRN as search shows it to this member, or null. */
  resolveMrn(mrn: string): Promise<BridgeRequests['resolve-mrn']['output']> {
    return this.request('resolve-mrn', { mrn });
  }

  /** The device's position through the shell (`purpose` says why, in the shell's question): a frame may not ask the browser itself. */
  position(purpose: string): Promise<BridgeRequests['position']['output']> {
    return this.request('position', { purpose });
  }

  /** A fresh token now (the client asks after a 401). */
  async refreshToken(): Promise<string> {
    const fresh = await this.request('token', {});
    this.current = { ...this.current, token: fresh.token, expires_at: fresh.expires_at, permissions: Array.isArray(fresh.permissions) ? fresh.permissions : this.current.permissions };
    return fresh.token;
  }

  /** The session ended: the shell sends the person to `/login?next=` this page. */
  sessionExpired(): Promise<null> {
    return this.request('session-expired', {});
  }
}

let opened: Promise<Bridge> | null = null;

/**
 * Opens the bridge to the shell (once per document): posts `hello` with a MessagePort to the
 * parent — addressed to the workspace's origin, the only one the shell runs on — and resolves
 * with the shell's `init`. Rejects after `timeoutMs` when the page was not opened by the shell
 * (opened on its own, it has no token and no one to ask).
 */
export function connectBridge(options: { timeoutMs?: number } = {}): Promise<Bridge> {
  opened ??= new Promise<Bridge>((resolve, reject) => {
    if (window.parent === window) {
      reject(new Error('This page runs inside the workspace shell: open it at /app/{slug}/'));
      return;
    }
    // The shell's script may not listen yet when this frame is quick: say hello again every
    // 250 ms, each time with a new port, and keep the one the shell answers on.
    const channels: MessageChannel[] = [];
    const documentId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    let done = false;
    const finish = () => {
      done = true;
      clearInterval(retry);
      clearTimeout(timer);
    };
    const hello = () => {
      const channel = new MessageChannel();
      channels.push(channel);
      channel.port1.onmessage = (event: MessageEvent) => {
        const push = event.data as BridgePush | { type: 'ack' };
        // The shell heard this hello: no need to say it again.
        if (push?.type === 'ack') return clearInterval(retry);
        if (done || push?.type !== 'init') return;
        finish();
        for (const other of channels) if (other !== channel) other.port1.close();
        resolve(new Bridge(channel.port1, push.init));
      };
      // An opaque origin has no name of its own; the shell's origin is this document's URL's.
      window.parent.postMessage({ protocol: BRIDGE_PROTOCOL, type: 'hello', document: documentId }, new URL(location.href).origin, [channel.port2]);
    };
    const retry = setInterval(hello, 250);
    const timer = setTimeout(() => {
      finish();
      reject(new Error('The workspace shell did not answer'));
    }, options.timeoutMs ?? 10_000);
    hello();
  });
  return opened;
}
