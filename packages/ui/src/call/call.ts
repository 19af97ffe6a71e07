import { LitElement, css, html, nothing } from 'lit';
import { sharedStyles } from '../components/shared-styles.js';
import { sendFile } from '../send-file.js';
import type { CallComposer, CallRecorder } from './recording.js';

/** What joining answers (POST /calls/{id}/sessions, a room's session): the signaling ticket. */
export interface CallJoinTicket {
  url: string;
  session: string;
  ice_servers?: RTCIceServer[];
}

/**
 * How the component reaches the platform: `join` joins over HTTP and answers the ticket, `leave`
 * leaves over HTTP; `protocols` are the websocket's subprotocols (`wpk.token.{token}` with an app
 * token; none on a same-origin page, where the session cookie is sent).
 */
export interface CallTransport {
  join: () => Promise<CallJoinTicket>;
  leave: () => Promise<void>;
  protocols?: () => string[] | Promise<string[]>;
  apiVersion?: string;
}

/** Another peer of the session. */
export interface CallPeer {
  peer_id: string;
  member_id: string;
  name: string;
}

/** What the component exposes for scripts and tests. */
export interface CallState {
  phase: 'preview' | 'joining' | 'joined' | 'left' | 'error';
  peerId: string | null;
  connections: Record<string, RTCIceConnectionState>;
  error: string | null;
  /** The id of the recording the member is making, or null. */
  recording: string | null;
}

/** A message of the signaling socket (docs/live-updates.md, "Server → client"). */
interface ServerMessage {
  type: string;
  peer_id?: string;
  member_id?: string;
  name?: string;
  peers?: CallPeer[];
  from?: string;
  data?: SignalData;
  error?: string;
}

/** What a peer signals: WebRTC's offers, answers and candidates, and whether it records the call. */
interface SignalData {
  description?: RTCSessionDescriptionInit;
  candidate?: RTCIceCandidateInit;
  recording?: boolean;
}

/** A peer's connection and what the component knows of it. */
interface PeerEntry {
  connection: RTCPeerConnection;
  peer: CallPeer;
  camera?: string;
  screenSender?: RTCRtpSender;
  recording?: boolean;
}

/** Elapsed time as m:ss (h:mm:ss past an hour). */
const elapsed = (seconds: number): string => {
  const clock = `${Math.floor(seconds / 60) % 60}:${String(seconds % 60).padStart(2, '0')}`;
  return seconds >= 3600 ? `${Math.floor(seconds / 3600)}:${clock.padStart(5, '0')}` : clock;
};

const DEFAULT_API_VERSION = '2026-11-01';

/**
 * `<wpk-call>`: a call in the page. First a preview of the member's camera and microphone (mute
 * and camera off before joining), then **Join**: the transport joins over HTTP, the signaling
 * socket opens with the ticket, and one `RTCPeerConnection` per other peer carries the media (a
 * mesh: the newcomer offers, ICE candidates trickle through `signal`, each peer's signals are
 * applied in order). In the call: mute, camera on/off, screen share where the browser offers
 * `getDisplayMedia` (a second video track beside the camera on every connection, added and
 * removed by renegotiating: the one whose peer id sorts higher is polite in a collision), the
 * participant list, and **Leave**. With a `recorder` (the member may record: `allowed`), **Record**
 * makes a recording on the server and records the call in the browser (`CallComposer`: every
 * tile and every voice), with its elapsed time, until **Stop recording**, which uploads the file
 * to the signed link and completes it (an upload that fails aborts it). Leaving while recording
 * stops, uploads and completes first. The other peers are told (a `signal` whose data is
 * `{recording}`) and show who records. It fires `wpk-call-joined` and `wpk-call-left`.
 * The camera needs a page on the workspace's origin (docs/ui.md, "Where app pages run").
 */
export class WpkCall extends LitElement {
  static override properties = {
    label: {},
    video: { type: Boolean },
    transport: { attribute: false },
    recorder: { attribute: false },
    view: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      .stage { display: grid; gap: var(--wpk-space-2); grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr)); }
      figure { margin: 0; position: relative; background: var(--wpk-color-surface-raised); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); overflow: hidden; }
      video { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: #000; }
      figcaption { padding: var(--wpk-space-1) var(--wpk-space-2); font-size: var(--wpk-font-size-s); }
      .controls { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin: var(--wpk-space-3) 0; }
      button { font: inherit; padding: var(--wpk-space-1) var(--wpk-space-3); border-radius: var(--wpk-radius-s); border: 1px solid var(--wpk-color-border-strong); background: var(--wpk-color-surface); color: var(--wpk-color-text); cursor: pointer; }
      button:focus-visible { outline: 2px solid var(--wpk-color-focus); outline-offset: 2px; }
      button.primary { background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); border-color: var(--wpk-color-brand-fill); }
      button.danger { background: var(--wpk-color-danger-fill); color: var(--wpk-color-on-danger-fill); border-color: var(--wpk-color-danger-fill); }
      button[aria-pressed='true'] { background: var(--wpk-color-brand-quiet); }
      ul.people { list-style: none; padding: 0; margin: 0; display: grid; gap: var(--wpk-space-1); }
      h2 { font-size: var(--wpk-font-size-m); margin: var(--wpk-space-3) 0 var(--wpk-space-1); }
      .recording { font-weight: var(--wpk-font-weight-bold); color: var(--wpk-color-danger); }
    `,
  ];

  /** The call's name, for the labels. */
  declare label: string;
  /** True for a video call (the camera too), false for audio only. */
  declare video: boolean;
  declare transport: CallTransport | null;
  /** How the call is recorded; null (a room): no Record button. */
  declare recorder: CallRecorder | null;
  declare view: number;

  /** The component's state (phase, own peer id, ICE state per peer, last error). */
  readonly state: CallState = { phase: 'preview', peerId: null, connections: {}, error: null, recording: null };
  private media: MediaStream | null = null;
  private screen: MediaStreamTrack | null = null;
  private screenStream: MediaStream | null = null;
  private muted = false;
  private cameraOff = false;
  private socket: WebSocket | null = null;
  private ticket: CallJoinTicket | null = null;
  private readonly peers = new Map<string, PeerEntry>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly videos = new Map<string, HTMLVideoElement>();
  private previewing: Promise<void> | null = null;
  /** Whether the member may record (the recorder's answer at Join). */
  private mayRecord = false;
  private recording: { id: string; upload: { url: string; method?: 'PUT' | 'POST' }; composer: CallComposer; clock: ReturnType<typeof setInterval> } | null = null;
  /** What became of the last recording: saving, saved, or why it failed (it outlives the call). */
  private recordingNote: { text: string; failed: boolean } | null = null;
  private recordingBusy = false;

  constructor() {
    super();
    this.label = 'Call';
    this.video = true;
    this.transport = null;
    this.recorder = null;
    this.view = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.previewing ??= this.preview();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.state.phase === 'joined' || this.state.phase === 'joining') void this.leave();
    else this.stopMedia();
  }

  /** True while the member's microphone is muted. */
  get isMuted(): boolean {
    return this.muted;
  }

  private update_(): void {
    this.view++;
  }

  private fail(error: unknown): void {
    this.state.error = String((error as Error)?.message ?? error);
    this.update_();
  }

  /** The video element of a tile: `local`, a peer id, or either with `:screen` (a shared screen). */
  private videoFor(id: string, stream: MediaStream, muted: boolean): HTMLVideoElement {
    let video = this.videos.get(id);
    if (!video) {
      video = document.createElement('video');
      video.autoplay = true;
      video.playsInline = true;
      video.muted = muted;
      const [peer, screen] = id.split(':');
      video.dataset.peer = peer;
      video.className = `${peer === 'local' ? 'local' : 'remote'}${screen ? '-screen' : ''}`;
      this.videos.set(id, video);
    }
    if (video.srcObject !== stream) video.srcObject = stream;
    return video;
  }

  /** The device preview: the camera (video calls) and the microphone, before joining. */
  private async preview(): Promise<void> {
    try {
      this.media = await navigator.mediaDevices.getUserMedia({ audio: true, video: this.video });
      this.videoFor('local', this.media, true);
      this.applyToggles();
    } catch (error) {
      this.state.phase = 'error';
      this.fail(new Error(`The camera or the microphone is not available: ${String((error as Error)?.message ?? error)}`));
    }
    this.update_();
  }

  private stopMedia(): void {
    for (const track of this.media?.getTracks() ?? []) track.stop();
    this.screen?.stop();
    this.screen = null;
    this.screenStream = null;
  }

  private applyToggles(): void {
    for (const track of this.media?.getAudioTracks() ?? []) track.enabled = !this.muted;
    for (const track of this.media?.getVideoTracks() ?? []) track.enabled = !this.cameraOff;
  }

  /** Mutes or unmutes the microphone. */
  toggleMute(): void {
    this.muted = !this.muted;
    this.applyToggles();
    this.update_();
  }

  /** Turns the camera off or on (the track stays, sending black). */
  toggleCamera(): void {
    this.cameraOff = !this.cameraOff;
    this.applyToggles();
    this.update_();
  }

  private send(message: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Joins the call: the transport over HTTP, then the signaling socket. */
  async join(): Promise<void> {
    if (!this.transport) throw new Error('<wpk-call> needs a transport');
    await this.previewing;
    if (!this.media) return;
    this.state.phase = 'joining';
    this.state.error = null;
    this.update_();
    try {
      this.ticket = await this.transport.join();
      this.mayRecord = (await this.recorder?.allowed().catch(() => false)) ?? false;
      const url = new URL(this.ticket.url);
      url.searchParams.set('api_version', this.transport.apiVersion ?? DEFAULT_API_VERSION);
      const protocols = (await this.transport.protocols?.()) ?? [];
      this.socket = protocols.length ? new WebSocket(url, protocols) : new WebSocket(url);
      this.socket.onmessage = (event) => this.onMessage(JSON.parse(String(event.data)));
      this.socket.onclose = () => {
        if (this.state.phase === 'joined' || this.state.phase === 'joining') this.hangUp('The connection to the call was lost.');
      };
    } catch (error) {
      this.state.phase = 'preview';
      this.fail(error);
    }
  }

  private onMessage(message: ServerMessage): void {
    switch (message.type) {
      case 'welcome':
        this.state.peerId = message.peer_id ?? null;
        this.send({ type: 'join', session: this.ticket!.session });
        break;
      case 'joined':
        this.state.phase = 'joined';
        this.update_();
        this.dispatchEvent(new CustomEvent('wpk-call-joined', { bubbles: true, composed: true }));
        for (const peer of message.peers ?? []) this.offerTo(peer).catch((error) => this.fail(error));
        break;
      case 'peer.joined':
        this.connectionTo({ peer_id: message.peer_id!, member_id: message.member_id ?? '', name: message.name ?? '' });
        this.update_();
        break;
      case 'signal': {
        const from = message.from!;
        const peer = { peer_id: from, member_id: message.member_id ?? '', name: this.peers.get(from)?.peer.name ?? '' };
        const chain = (this.chains.get(from) ?? Promise.resolve()).then(() => this.onSignal(peer, message.data ?? {})).catch((error) => this.fail(error));
        this.chains.set(from, chain);
        break;
      }
      case 'peer.left':
        this.drop(message.peer_id!);
        this.update_();
        break;
      case 'ended':
        // The member's own Leave may end the call (the last one out): the server's word can come
        // before its answer; they left, whichever arrives first.
        this.hangUp(this.leaving ? 'You left the call.' : 'The call ended.');
        break;
      case 'removed':
        this.hangUp('You left the call.');
        break;
      case 'error':
        this.fail(new Error(message.error ?? 'The signaling server refused'));
        break;
    }
  }

  private connectionTo(peer: CallPeer): RTCPeerConnection {
    const known = this.peers.get(peer.peer_id);
    if (known) return known.connection;
    const connection = new RTCPeerConnection({ iceServers: this.ticket?.ice_servers ?? [] });
    const entry: PeerEntry = { connection, peer };
    this.peers.set(peer.peer_id, entry);
    if (this.recording) this.send({ type: 'signal', to: peer.peer_id, data: { recording: true } });
    for (const track of this.media!.getTracks()) connection.addTrack(track, this.media!);
    if (this.screen && this.screenStream) entry.screenSender = connection.addTrack(this.screen, this.screenStream);
    connection.onicecandidate = (event) => {
      if (event.candidate) this.send({ type: 'signal', to: peer.peer_id, data: { candidate: event.candidate.toJSON() } });
    };
    connection.ontrack = (event) => {
      const stream = event.streams[0] ?? new MediaStream([event.track]);
      entry.camera ??= stream.id;
      if (stream.id === entry.camera) {
        this.videoFor(peer.peer_id, stream, false);
      } else {
        // Another stream is the peer's shared screen: its tile goes when renegotiation removes the track.
        const id = `${peer.peer_id}:screen`;
        this.videoFor(id, stream, true);
        stream.onremovetrack = () => {
          if (stream.getVideoTracks().length === 0) this.videos.delete(id);
          this.update_();
        };
      }
      this.update_();
    };
    connection.oniceconnectionstatechange = () => {
      this.state.connections[peer.peer_id] = connection.iceConnectionState;
      this.update_();
    };
    this.state.connections[peer.peer_id] = connection.iceConnectionState;
    return connection;
  }

  private async offerTo(peer: CallPeer): Promise<void> {
    const connection = this.connectionTo(peer);
    await connection.setLocalDescription(await connection.createOffer());
    this.send({ type: 'signal', to: peer.peer_id, data: { description: connection.localDescription!.toJSON() } });
  }

  /** Offers again to a peer (a track added or removed), in order with its signals. */
  private renegotiate(peer: CallPeer): void {
    const chain = (this.chains.get(peer.peer_id) ?? Promise.resolve()).then(() => this.offerTo(peer)).catch((error) => this.fail(error));
    this.chains.set(peer.peer_id, chain);
  }

  private async onSignal(peer: CallPeer, data: SignalData): Promise<void> {
    const connection = this.connectionTo(peer);
    if (typeof data.recording === 'boolean') {
      this.peers.get(peer.peer_id)!.recording = data.recording;
      this.update_();
    } else if (data.description) {
      const collision = data.description.type === 'offer' && connection.signalingState !== 'stable';
      // Two offers crossed: the impolite peer (the lower peer id) keeps its own, the polite one rolls back and answers.
      if (collision && (this.state.peerId ?? '') < peer.peer_id) return;
      await connection.setRemoteDescription(data.description);
      if (data.description.type === 'offer') {
        await connection.setLocalDescription(await connection.createAnswer());
        this.send({ type: 'signal', to: peer.peer_id, data: { description: connection.localDescription!.toJSON() } });
        // A track this side holds that the offer had no place for (a screen shared before the peer came, a rolled-back offer): offer it now.
        if (connection.getTransceivers().some((transceiver) => transceiver.mid === null && transceiver.sender.track)) await this.offerTo(peer);
      }
    } else if (data.candidate) {
      await connection.addIceCandidate(data.candidate);
    }
  }

  private drop(peerId: string): void {
    this.peers.get(peerId)?.connection.close();
    this.peers.delete(peerId);
    this.chains.delete(peerId);
    delete this.state.connections[peerId];
    this.videos.delete(peerId);
    this.videos.delete(`${peerId}:screen`);
  }

  /** True when the browser can share a screen. */
  get canShareScreen(): boolean {
    return typeof navigator.mediaDevices?.getDisplayMedia === 'function';
  }

  /** Shares a screen beside the camera (a second video track to every peer), or stops sharing. */
  async toggleScreen(): Promise<void> {
    if (this.screen) return this.stopScreen();
    try {
      const display = await navigator.mediaDevices.getDisplayMedia({ video: true });
      const [track] = display.getVideoTracks();
      if (!track) return;
      this.screen = track;
      this.screenStream = display;
      track.onended = () => void this.stopScreen();
      for (const entry of this.peers.values()) {
        entry.screenSender = entry.connection.addTrack(track, display);
        this.renegotiate(entry.peer);
      }
      this.videoFor('local:screen', display, true);
    } catch (error) {
      this.fail(error);
    }
    this.update_();
  }

  private stopScreen(): void {
    this.screen?.stop();
    this.screen = null;
    this.screenStream = null;
    for (const entry of this.peers.values()) {
      if (!entry.screenSender) continue;
      entry.connection.removeTrack(entry.screenSender);
      entry.screenSender = undefined;
      this.renegotiate(entry.peer);
    }
    this.videos.delete('local:screen');
    this.update_();
  }

  private hangUp(text: string): void {
    // Out of the call while recording (the call ended, the connection was lost): what was recorded is kept.
    if (this.recording) void this.stopRecording();
    const already = this.state.phase === 'left';
    for (const peerId of [...this.peers.keys()]) this.drop(peerId);
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.stopMedia();
    this.videos.clear();
    this.state.phase = 'left';
    this.state.error = null;
    this.ended = text;
    this.update_();
    if (!already) this.dispatchEvent(new CustomEvent('wpk-call-left', { bubbles: true, composed: true, detail: { reason: text } }));
  }

  private ended = '';
  /** Set by Leave until the call is left. */
  private leaving = false;

  /** Leaves the call: over HTTP first (the server takes the peer out of the session), then locally. */
  async leave(): Promise<void> {
    this.leaving = true;
    try {
      if (this.recording) await this.stopRecording();
      await this.transport?.leave();
      this.hangUp('You left the call.');
    } catch (error) {
      // Refused because the call ended meanwhile (the server's word came first): they are out.
      if (this.state.phase === 'left') this.hangUp('You left the call.');
      else this.fail(error);
    } finally {
      this.leaving = false;
    }
  }

  /** Tells every peer whether the member records the call. */
  private announce(recording: boolean): void {
    for (const peerId of this.peers.keys()) this.send({ type: 'signal', to: peerId, data: { recording } });
  }

  /** Starts a recording: on the server (its upload link), then in the browser. */
  async startRecording(): Promise<void> {
    if (!this.recorder || this.recording || this.state.phase !== 'joined') return;
    this.recordingBusy = true;
    this.recordingNote = null;
    this.update_();
    let id: string | null = null;
    try {
      // The composer loads with the first recording: pages that never record (Rooms) do not carry it.
      const [{ CallComposer }, started] = await Promise.all([import('./recording.js'), this.recorder.start(this.video ? 'video/webm' : 'audio/webm')]);
      id = started.id;
      const composer = new CallComposer(() => [...this.videos.values()], this.video);
      this.recording = { id, upload: started.upload, composer, clock: setInterval(() => this.update_(), 1000) };
      this.state.recording = id;
      this.announce(true);
    } catch (error) {
      if (id) await this.recorder.abort(id).catch(() => undefined);
      this.recordingNote = { text: `The call could not be recorded: ${String((error as Error)?.message ?? error)}`, failed: true };
    } finally {
      this.recordingBusy = false;
      this.update_();
    }
  }

  /** Stops recording: the file goes to the upload link, then the recording is completed; a failed upload aborts it. */
  async stopRecording(): Promise<void> {
    const recording = this.recording;
    if (!recording || !this.recorder) return;
    this.recording = null;
    this.state.recording = null;
    clearInterval(recording.clock);
    this.announce(false);
    const seconds = recording.composer.seconds;
    this.recordingNote = { text: 'Saving the recording…', failed: false };
    this.update_();
    const file = await recording.composer.stop();
    let step = 'uploaded';
    try {
      // The browser may hand over nothing (a recording stopped before its encoder produced data).
      if (file.size === 0) throw new Error('the browser recorded nothing');
      await sendFile(file, { url: recording.upload.url, method: recording.upload.method ?? 'PUT', headers: { 'content-type': recording.composer.contentType } });
      step = 'saved';
      await this.recorder.complete(recording.id, seconds);
      this.recordingNote = { text: `The recording (${elapsed(seconds)}) is saved.`, failed: false };
    } catch (error) {
      if (step === 'uploaded') await this.recorder.abort(recording.id).catch(() => undefined);
      this.recordingNote = { text: `The recording could not be ${step}: ${String((error as Error)?.message ?? error)}`, failed: true };
    }
    this.update_();
  }

  /** The recording's state: the member's own (elapsed time), who else records, the last one's fate. */
  private recordingStatus() {
    const others = [...this.peers.values()].filter((entry) => entry.recording).map((entry) => entry.peer.name || 'Someone');
    const note = this.recordingNote;
    return html`${this.recording ? html`<p class="recording" role="status">● Recording ${elapsed(this.recording.composer.seconds)}</p>` : nothing}
      ${others.length ? html`<p class="recording" role="status">● ${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} recording this call</p>` : nothing}
      ${note ? html`<p class=${note.failed ? 'error' : ''} role=${note.failed ? 'alert' : 'status'}>${note.text}</p>` : nothing}`;
  }

  private status(): string {
    switch (this.state.phase) {
      case 'preview':
        return 'Check your camera and microphone, then join.';
      case 'joining':
        return 'Joining…';
      case 'joined': {
        if (this.peers.size === 0) return 'Waiting for others…';
        const connected = Object.values(this.state.connections).filter((value) => value === 'connected' || value === 'completed').length;
        return `In the call: ${connected} of ${this.peers.size} connected`;
      }
      case 'left':
        return this.ended;
      default:
        return '';
    }
  }

  /** A peer's tiles: the camera, then the shared screen if any. */
  private tile(id: string, name: string) {
    const own = id === 'local';
    return [
      this.figure(id, own ? 'Your camera' : `Video of ${name}`, name),
      this.figure(`${id}:screen`, own ? 'Your shared screen' : `Screen shared by ${name}`, own ? 'Your screen' : `${name}'s screen`),
    ];
  }

  private figure(id: string, label: string, caption: string) {
    const video = this.videos.get(id);
    if (!video) return nothing;
    video.setAttribute('aria-label', label);
    return html`<figure>${video}<figcaption>${caption}</figcaption></figure>`;
  }

  private controls() {
    const inCall = this.state.phase === 'joined';
    return html`<div class="controls" role="group" aria-label="Call controls">
      <button type="button" aria-pressed=${this.muted ? 'true' : 'false'} @click=${() => this.toggleMute()}>${this.muted ? 'Unmute' : 'Mute'}</button>
      ${this.video ? html`<button type="button" aria-pressed=${this.cameraOff ? 'true' : 'false'} @click=${() => this.toggleCamera()}>${this.cameraOff ? 'Camera on' : 'Camera off'}</button>` : nothing}
      ${inCall && this.video && this.canShareScreen
        ? html`<button type="button" aria-pressed=${this.screen ? 'true' : 'false'} @click=${() => this.toggleScreen()}>${this.screen ? 'Stop sharing' : 'Share screen'}</button>`
        : nothing}
      ${inCall && this.mayRecord
        ? this.recording
          ? html`<button type="button" @click=${() => this.stopRecording()}>Stop recording</button>`
          : html`<button type="button" ?disabled=${this.recordingBusy} @click=${() => this.startRecording()}>Record</button>`
        : nothing}
      ${inCall
        ? html`<button type="button" class="danger" @click=${() => this.leave()}>Leave</button>`
        : html`<button type="button" class="primary" ?disabled=${this.state.phase === 'joining' || !this.media} @click=${() => this.join()}>Join</button>`}
    </div>`;
  }

  protected override render() {
    const status = html`<p role="status">${this.status()}</p>${this.state.error ? html`<p class="error" role="alert">${this.state.error}</p>` : nothing}${this.recordingStatus()}`;
    if (this.state.phase === 'left' || (this.state.phase === 'error' && !this.media)) return html`<section aria-label=${this.label}>${status}</section>`;
    const peers = [...this.peers.values()].map(({ peer }) => peer);
    return html`<section aria-label=${this.label}>
      ${status}
      <div class="stage">${this.tile('local', 'You')}${peers.map((peer) => this.tile(peer.peer_id, peer.name || 'Someone'))}</div>
      ${this.controls()}
      ${this.state.phase === 'joined'
        ? html`<h2 id="people">In the call</h2>
            <ul class="people" aria-labelledby="people">
              <li>You${this.muted ? ' (muted)' : ''}</li>
              ${peers.map((peer) => html`<li>${peer.name || 'Someone'}</li>`)}
            </ul>`
        : nothing}
    </section>`;
  }
}

if (!customElements.get('wpk-call')) customElements.define('wpk-call', WpkCall);
