/**
 * The live-updates socket (docs/live-updates.md) from an app's frame: opened with the app's
 * token (browsers cannot set headers on a websocket, so the token rides as a subprotocol,
 * `wpk.token.{token}`; the server answers `wpk.live.1`), and kept open: when it drops, it comes
 * back after a growing pause with a fresh token and subscribes again with `since` = the last
 * event id each channel saw, so nothing is missed; a `reset` (the log no longer holds the gap)
 * tells the listener to reload over HTTP.
 */

/** One event on a channel. */
export interface LiveEvent {
  channel: string;
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** What a channel's listener hears. */
export interface ChannelListener {
  /** Subscribed (again): `reset` true when the events missed since `since` are no longer all kept. */
  subscribed?(info: { last_id: string; reset: boolean; presence: string[] }): void;
  event(event: LiveEvent): void;
  /** Access to the channel was lost (403 at subscribe, or `revoked`). */
  lost?(error: string): void;
  /** Another subscriber is typing on the channel. */
  typing?(memberId: string): void;
  /** A member opened (`online`) or closed (`offline`) the channel. */
  presence?(memberId: string, state: 'online' | 'offline'): void;
  /** Another socket's ephemeral signal (a caret, who is here), on a kind of channel that allows them. */
  signal?(memberId: string, data: Record<string, unknown>, connectionId: string): void;
}

interface Followed {
  listener: ChannelListener;
  last: string | null;
}

/** The live socket of a front-end: `live.follow(channel, listener)`; `unfollow` returns what `follow` answered. */
export class LiveConnection {
  private socket: WebSocket | null = null;
  private readonly channels = new Map<string, Followed>();
  private attempt = 0;
  private closed = false;
  private next = 1;

  constructor(
    private readonly options: {
      /** `wss://acme.example.com/live` (the app's own origin). */
      url: string;
      apiVersion: string;
      /** A current token, fresh when asked after a drop. */
      token: () => Promise<string>;
    },
  ) {}

  /** Follows a channel (`tasks/boards/{id}`); answers a function that stops following it. */
  follow(channel: string, listener: ChannelListener): () => void {
    this.channels.set(channel, { listener, last: null });
    if (this.socket?.readyState === WebSocket.OPEN) this.subscribe(channel);
    else this.open();
    return () => {
      this.channels.delete(channel);
      if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'unsubscribe', channel, ref: `u${this.next++}` }));
    };
  }

  /** Tells the channel's other subscribers this member is typing (the server passes one per channel per 2 s). */
  typing(channel: string): void {
    if (this.channels.has(channel) && this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'typing', channel }));
  }

  /** Sends an ephemeral signal to the channel's other sockets (at most 2 kB of JSON; dropped while the socket is down). */
  signal(channel: string, data: Record<string, unknown>): void {
    if (this.channels.has(channel) && this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'signal', channel, data }));
  }

  /** Closes the socket for good. */
  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private subscribe(channel: string): void {
    const followed = this.channels.get(channel);
    if (!followed) return;
    this.socket?.send(JSON.stringify({ type: 'subscribe', channel, ref: `s${this.next++}`, ...(followed.last ? { since: followed.last } : {}) }));
  }

  private open(): void {
    if (this.closed || this.socket) return;
    void this.options.token().then((token) => {
      if (this.closed || this.socket) return;
      const url = new URL(this.options.url);
      url.searchParams.set('api_version', this.options.apiVersion);
      const socket = new WebSocket(url, ['wpk.live.1', `wpk.token.${token}`]);
      this.socket = socket;
      socket.onopen = () => {
        this.attempt = 0;
        for (const channel of this.channels.keys()) this.subscribe(channel);
      };
      socket.onmessage = (message) => this.receive(JSON.parse(String(message.data)));
      socket.onclose = () => {
        this.socket = null;
        if (this.closed || this.channels.size === 0) return;
        const pause = Math.min(30_000, 500 * 2 ** this.attempt++);
        setTimeout(() => this.open(), pause);
      };
    });
  }

  private receive(message: Record<string, unknown>): void {
    const channel = typeof message.channel === 'string' ? message.channel : '';
    const followed = this.channels.get(channel);
    if (!followed) return;
    if (message.type === 'subscribed') {
      followed.listener.subscribed?.({ last_id: String(message.last_id), reset: message.reset === true, presence: (message.presence as string[]) ?? [] });
      if (followed.last === null || message.reset === true) followed.last = String(message.last_id);
    } else if (message.type === 'event') {
      followed.last = String(message.id);
      followed.listener.event({ channel, id: String(message.id), event: String(message.event), data: (message.data as Record<string, unknown>) ?? {} });
    } else if (message.type === 'typing') {
      followed.listener.typing?.(String(message.member_id));
    } else if (message.type === 'signal') {
      followed.listener.signal?.(String(message.member_id), (message.data as Record<string, unknown>) ?? {}, String(message.connection_id ?? ''));
    } else if (message.type === 'presence') {
      followed.listener.presence?.(String(message.member_id), message.state === 'online' ? 'online' : 'offline');
    } else if (message.type === 'revoked' || (message.type === 'error' && (message.status === 403 || message.status === 404))) {
      this.channels.delete(channel);
      followed.listener.lost?.(String(message.error ?? 'No access'));
    }
  }
}
