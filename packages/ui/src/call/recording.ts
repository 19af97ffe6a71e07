/**
 * How `<wpk-call>` records a call, when its page gives it a recorder (a room has none): `allowed`
 * says whether the member may (their keys), `start` makes the recording on the server and answers
 * its id and signed upload link, `complete` marks the uploaded file ready with its duration, and
 * `abort` gives it up (the upload failed).
 */
export interface CallRecorder {
  allowed: () => Promise<boolean>;
  start: (contentType: string) => Promise<{ id: string; upload: { url: string; method?: 'PUT' | 'POST' } }>;
  complete: (id: string, durationSeconds: number) => Promise<void>;
  abort: (id: string) => Promise<void>;
}

/** The size of a recording's picture and how often it is drawn. */
const WIDTH = 960;
const HEIGHT = 540;
const FRAME_MS = 1000 / 15;

/**
 * One recording in the browser: what the member sees and hears, composed. The picture is every
 * tile of the call (cameras and shared screens, the member's own included) drawn in a grid on a
 * canvas; the sound is every participant's audio (the member's microphone and each remote stream)
 * mixed with Web Audio, so one audio track carries all voices. `MediaRecorder` records the
 * canvas's track with the mix as WebM (audio only for an audio call). Tiles and voices that come
 * and go during the recording are followed at each frame.
 */
export class CallComposer {
  readonly contentType: string;
  readonly startedAt = Date.now();
  private readonly context = new AudioContext();
  private readonly mix: MediaStreamAudioDestinationNode;
  private readonly voices = new Map<MediaStream, MediaStreamAudioSourceNode>();
  private readonly canvas: HTMLCanvasElement | null;
  private readonly stream: MediaStream;
  private readonly recorder: MediaRecorder;
  private readonly chunks: Blob[] = [];
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly tiles: () => HTMLVideoElement[],
    video: boolean,
  ) {
    this.contentType = video ? 'video/webm' : 'audio/webm';
    this.mix = this.context.createMediaStreamDestination();
    const tracks = [...this.mix.stream.getAudioTracks()];
    if (video) {
      this.canvas = document.createElement('canvas');
      this.canvas.width = WIDTH;
      this.canvas.height = HEIGHT;
      tracks.push(...this.canvas.captureStream(15).getVideoTracks());
    } else this.canvas = null;
    this.stream = new MediaStream(tracks);
    this.recorder = new MediaRecorder(this.stream, { mimeType: this.contentType });
    this.recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    };
    this.frame();
    this.timer = setInterval(() => this.frame(), FRAME_MS);
    this.recorder.start(1000);
  }

  /** Whole seconds recorded so far. */
  get seconds(): number {
    return Math.floor((Date.now() - this.startedAt) / 1000);
  }

  /** Follows the voices (new streams join the mix, gone ones leave it) and draws the tiles. */
  private frame(): void {
    const videos = this.tiles();
    const streams = new Set(videos.map((video) => video.srcObject).filter((stream): stream is MediaStream => stream instanceof MediaStream && stream.getAudioTracks().length > 0));
    for (const stream of streams) {
      if (this.voices.has(stream)) continue;
      const source = this.context.createMediaStreamSource(stream);
      source.connect(this.mix);
      this.voices.set(stream, source);
    }
    for (const [stream, source] of this.voices) {
      if (streams.has(stream)) continue;
      source.disconnect();
      this.voices.delete(stream);
    }
    const draw = this.canvas?.getContext('2d');
    if (!draw) return;
    draw.fillStyle = '#000';
    draw.fillRect(0, 0, WIDTH, HEIGHT);
    const shown = videos.filter((video) => video.videoWidth > 0);
    const columns = Math.ceil(Math.sqrt(shown.length));
    const rows = Math.ceil(shown.length / columns);
    shown.forEach((video, index) => {
      const cellWidth = WIDTH / columns;
      const cellHeight = HEIGHT / rows;
      const scale = Math.min(cellWidth / video.videoWidth, cellHeight / video.videoHeight);
      const width = video.videoWidth * scale;
      const height = video.videoHeight * scale;
      draw.drawImage(video, (index % columns) * cellWidth + (cellWidth - width) / 2, Math.floor(index / columns) * cellHeight + (cellHeight - height) / 2, width, height);
    });
  }

  /** Stops recording: the file, whole. */
  async stop(): Promise<Blob> {
    clearInterval(this.timer);
    if (this.recorder.state !== 'inactive') {
      const stopped = new Promise((resolve) => this.recorder.addEventListener('stop', resolve, { once: true }));
      this.recorder.stop();
      await stopped;
    }
    for (const track of this.stream.getTracks()) track.stop();
    void this.context.close();
    return new Blob(this.chunks, { type: this.contentType });
  }
}
