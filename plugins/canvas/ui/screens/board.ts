import { LitElement, appLink, css, errorText, html, kit, nothing, repeat, screenStyles, svg } from '@wpk/ui';
import { BoardDoc, type BoardObject, type Cursor, type ObjectType } from '../board-doc.js';
import { CONTROL_STYLES } from '../styles.js';
import './board-extras.js';

const KIND_NAMES: Record<ObjectType, string> = { sticky: 'Sticky note', shape: 'Shape', text: 'Text', connector: 'Connector', image: 'Image' };
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 4;
/** After a failed read of a member's name, how long their cursor is labelled 'A member' before the name is asked again. */
const NAME_AGAIN_MS = 5_000;

type Drag = { kind: 'move'; id: string; from: [number, number]; origin: [number, number]; moved: boolean } | { kind: 'pan'; from: [number, number]; origin: [number, number] };

/** What a person reads for an object (its kind, its shape, the start of its text). */
export function objectName(object: BoardObject): string {
  const kind = object.type === 'shape' ? object.shape.charAt(0).toUpperCase() + object.shape.slice(1) : KIND_NAMES[object.type];
  const text = (object.type === 'image' ? object.alt : object.text).trim().slice(0, 40);
  return text ? `${kind}: ${text}` : kind;
}

/** The corners of a diamond or a triangle in its box. */
function shapePoints({ x, y, width: w, height: h, shape }: BoardObject): string {
  const corners = shape === 'diamond' ? [[x + w / 2, y], [x + w, y + h / 2], [x + w / 2, y + h], [x, y + h / 2]] : [[x + w / 2, y], [x + w, y + h], [x, y + h]];
  return corners.map((corner) => corner.join(',')).join(' ');
}

/** Where the line from `centre` (the object's) towards `other` leaves the object's box: connectors join edges, not centres. */
export function edgePoint(object: BoardObject, centre: [number, number], other: [number, number]): [number, number] {
  const [dx, dy] = [other[0] - centre[0], other[1] - centre[1]];
  if (dx === 0 && dy === 0) return centre;
  const scale = Math.min(dx === 0 ? Infinity : object.width / 2 / Math.abs(dx), dy === 0 ? Infinity : object.height / 2 / Math.abs(dy), 1);
  return [centre[0] + dx * scale, centre[1] + dy * scale];
}

/**
 * `/boards/:board_id`: the whiteboard. A toolbar adds sticky notes, rectangles, ellipses and text;
 * the SVG surface shows the board (pan by dragging empty space or with Space held, or the arrow
 * keys on the surface; zoom with the wheel, the buttons or + and -), each object a focusable
 * button: drag it or move it with the arrow keys, Delete removes it; the panel under the toolbar
 * edits the selected object's text, connects it to another object and holds its comments. Other
 * members' pointers show with their names.
 */
export class CanvasBoard extends LitElement {
  static override properties = {
    boardId: { attribute: 'board-id' },
    name: { state: true },
    selected: { state: true },
    connecting: { state: true },
    error: { state: true },
    tick: { state: true },
    loaded: { state: true },
  };
  static override styles = [
    screenStyles,
    CONTROL_STYLES,
    css`
      h1 { margin: 0 0 var(--wpk-space-2); }
      .head { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: baseline; justify-content: space-between; }
      .toolbar { margin-bottom: var(--wpk-space-2); }
      .toolbar .sep { width: 1px; align-self: stretch; background: var(--wpk-color-border); margin: 0 var(--wpk-space-1); }
      svg.surface { display: block; width: 100%; height: 60vh; min-height: 320px; border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); background: var(--wpk-color-surface); touch-action: none; user-select: none; cursor: grab; }
      svg.surface.panning { cursor: grabbing; }
      svg.surface:focus-visible { outline: 2px solid var(--wpk-color-focus); }
      g.object { cursor: move; }
      g.object:focus { outline: none; }
      g.object:focus-visible .outline, g.object[aria-pressed='true'] .outline { stroke: var(--wpk-color-focus); stroke-width: 3; }
      .outline { fill: none; stroke: transparent; vector-effect: non-scaling-stroke; }
      .label { width: 100%; height: 100%; box-sizing: border-box; padding: 8px; overflow: hidden; overflow-wrap: anywhere; white-space: pre-wrap; color: #1f2933; font-family: var(--wpk-font-sans); line-height: 1.3; }
      .label.center { display: flex; align-items: center; justify-content: center; text-align: center; }
      .cursor text { font-size: 12px; font-family: var(--wpk-font-sans); }
      .cursor rect { fill: var(--wpk-color-brand-fill); }
      .cursor text { fill: var(--wpk-color-on-brand-fill); }
      .cursor path { fill: var(--wpk-color-brand-fill); stroke: var(--wpk-color-surface); }
      .panel { display: grid; gap: var(--wpk-space-2); margin-top: var(--wpk-space-2); padding: var(--wpk-space-3); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); }
      .panel label { font-weight: var(--wpk-font-weight-bold); }
      .panel textarea { width: 100%; box-sizing: border-box; min-height: 4.5rem; }
      .zoom { min-width: 3.5rem; text-align: center; }
      .hint { font-size: var(--wpk-font-size-s); }
    `,
  ];
  declare boardId: string;
  declare name: string;
  declare selected: string | null;
  declare connecting: boolean;
  declare error: string | null;
  declare tick: number;
  declare loaded: boolean;
  /** The board's Yjs replica (also what the browser test reads). */
  replica: BoardDoc | null = null;
  private names = new Map<string, string>();
  private pan: [number, number] = [40, 40];
  private zoom = 1;
  private drag: Drag | null = null;
  private spaceHeld = false;
  private added = 0;
  private stopListening: () => void = () => {};
  /** Image objects' pictures by file key: a blob: address once read (the frame's CSP allows blob: images). */
  private readonly pictures = new Map<string, string | null>();

  constructor() {
    super();
    this.name = '';
    this.selected = null;
    this.connecting = false;
    this.error = null;
    this.tick = 0;
    this.loaded = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.open();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const url of this.pictures.values()) if (url) URL.revokeObjectURL(url);
    this.pictures.clear();
    this.stopListening();
    this.replica?.close();
    this.replica = null;
  }

  private open(): void {
    const replica = new BoardDoc(this.boardId);
    this.replica = replica;
    replica.renamed = (name) => {
      this.name = name;
      void kit().bridge.title(name);
    };
    void replica.ready.then(() => (this.loaded = replica === this.replica));
    this.stopListening = replica.onChange(() => {
      this.syncEditor();
      this.tick++;
    });
    void kit()
      .client.request<{ data: { name: string } }>('GET', `/canvas/boards/${this.boardId}`)
      .then((answer) => {
        this.name = answer.data.name;
        void kit().bridge.title(this.name);
      })
      .catch((error: unknown) => (this.error = errorText(error)));
  }

  private readonly nameOf = (id: string): string => {
    const object = this.objects.find((one) => one.id === id);
    return object ? objectName(object) : 'a deleted object';
  };

  private get objects(): BoardObject[] {
    return this.replica?.list() ?? [];
  }

  private get current(): BoardObject | null {
    return this.objects.find((object) => object.id === this.selected) ?? null;
  }

  /** The board point under a pointer event. */
  private boardPoint(event: { clientX: number; clientY: number }): [number, number] {
    const box = this.surface!.getBoundingClientRect();
    return [(event.clientX - box.left - this.pan[0]) / this.zoom, (event.clientY - box.top - this.pan[1]) / this.zoom];
  }

  private get surface(): SVGSVGElement | null {
    return this.renderRoot.querySelector('svg.surface');
  }

  /** Where a new object goes: the middle of the view, a little lower and righter for each one added. */
  private placeFor(width: number, height: number): { x: number; y: number } {
    const box = this.surface?.getBoundingClientRect() ?? { width: 800, height: 400 };
    const step = (this.added++ % 6) * 24;
    return { x: Math.round((box.width / 2 - this.pan[0]) / this.zoom - width / 2 + step), y: Math.round((box.height / 2 - this.pan[1]) / this.zoom - height / 2 + step) };
  }

  private add(type: ObjectType, fields: Record<string, unknown> = {}): void {
    if (!this.replica) return;
    const [width, height] = type === 'sticky' ? [160, 160] : type === 'text' ? [200, 40] : [180, 120];
    const id = this.replica.add(type, { ...this.placeFor(width, height), width, height, ...fields });
    this.select(id);
  }

  private select(id: string | null): void {
    this.selected = id;
    this.connecting = false;
  }

  private focusObject(id: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<SVGGElement>(`g.object[data-id="${CSS.escape(id)}"]`)?.focus());
  }

  private removeObject(id: string): void {
    this.replica?.remove(id);
    if (this.selected === id) this.selected = null;
    this.surface?.focus();
  }

  private setZoom(next: number, around?: [number, number]): void {
    const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(next * 100) / 100));
    const box = this.surface?.getBoundingClientRect();
    const [cx, cy] = around ?? [(box?.width ?? 0) / 2, (box?.height ?? 0) / 2];
    this.pan = [cx - ((cx - this.pan[0]) / this.zoom) * zoom, cy - ((cy - this.pan[1]) / this.zoom) * zoom];
    this.zoom = zoom;
    this.tick++;
  }

  private panBy(dx: number, dy: number): void {
    this.pan = [this.pan[0] + dx, this.pan[1] + dy];
    this.tick++;
  }

  // The text field of the selected object follows others' typing at once (not on Lit's next
  // render), so what the field holds is always the document's text when the person types next.
  private syncEditor(): void {
    const field = this.renderRoot.querySelector<HTMLTextAreaElement>('textarea#object-text');
    const object = this.current;
    if (!field || !object || field.value === object.text) return;
    const focused = (this.renderRoot as ShadowRoot).activeElement === field;
    const [start, end] = [field.selectionStart, field.selectionEnd];
    const before = field.value;
    field.value = object.text;
    if (!focused) return;
    const shift = before.slice(0, start) === object.text.slice(0, start) ? 0 : object.text.length - before.length;
    field.setSelectionRange(start + shift, end + shift);
  }

  private onText(event: InputEvent): void {
    if (this.selected) this.replica?.setText(this.selected, (event.target as HTMLTextAreaElement).value);
  }

  private onPointerDown(event: PointerEvent): void {
    if (event.button !== 0) return;
    const target = (event.target as Element).closest('g.object') as SVGGElement | null;
    const id = target?.dataset.id;
    const object = id ? this.objects.find((one) => one.id === id) : undefined;
    if (object && this.connecting && this.selected) {
      this.connectTo(object.id);
      return;
    }
    this.surface!.setPointerCapture(event.pointerId);
    if (object && !this.spaceHeld) {
      this.select(object.id);
      target!.focus();
      this.drag = { kind: 'move', id: object.id, from: [event.clientX, event.clientY], origin: [object.x, object.y], moved: false };
    } else {
      if (!object) this.select(null);
      this.drag = { kind: 'pan', from: [event.clientX, event.clientY], origin: [...this.pan] };
    }
    event.preventDefault();
  }

  private onPointerMove(event: PointerEvent): void {
    const [x, y] = this.boardPoint(event);
    this.replica?.moveCursor(x, y);
    const drag = this.drag;
    if (!drag) return;
    const [dx, dy] = [event.clientX - drag.from[0], event.clientY - drag.from[1]];
    if (drag.kind === 'pan') {
      this.pan = [drag.origin[0] + dx, drag.origin[1] + dy];
      this.tick++;
    } else if (dx !== 0 || dy !== 0) {
      drag.moved = true;
      this.replica?.move(drag.id, drag.origin[0] + dx / this.zoom, drag.origin[1] + dy / this.zoom);
    }
  }

  private onPointerUp(): void {
    this.drag = null;
    this.tick++;
  }

  private onWheel(event: WheelEvent): void {
    event.preventDefault();
    const box = this.surface!.getBoundingClientRect();
    this.setZoom(this.zoom * (event.deltaY < 0 ? 1.1 : 1 / 1.1), [event.clientX - box.left, event.clientY - box.top]);
  }

  /** Keys on the surface: arrows pan, + and - zoom, 0 resets; on an object: arrows move it, Enter edits, Delete removes. */
  private onKeyDown(event: KeyboardEvent): void {
    const target = event.target as Element;
    if (event.key === ' ' && !target.closest('textarea, input, button')) {
      this.spaceHeld = true;
      event.preventDefault();
      return;
    }
    const step = event.shiftKey ? 50 : 10;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const id = (target.closest('g.object') as SVGGElement | null)?.dataset.id;
    const object = id ? this.objects.find((one) => one.id === id) : undefined;
    if (object) {
      if (arrows[event.key]) {
        const [dx, dy] = arrows[event.key];
        this.replica?.move(object.id, object.x + dx * step, object.y + dy * step);
      } else if (event.key === 'Enter') {
        if (this.connecting && this.selected && this.selected !== object.id) this.connectTo(object.id);
        else {
          this.select(object.id);
          void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLTextAreaElement>('textarea#object-text')?.focus());
        }
      } else if (event.key === 'Delete' || event.key === 'Backspace') this.removeObject(object.id);
      else if (event.key === 'Escape') {
        this.select(null);
        this.surface?.focus();
      } else return;
      event.preventDefault();
      return;
    }
    if (target !== this.surface) return;
    if (arrows[event.key]) this.panBy(-arrows[event.key][0] * step * 4, -arrows[event.key][1] * step * 4);
    else if (event.key === '+' || event.key === '=') this.setZoom(this.zoom * 1.25);
    else if (event.key === '-') this.setZoom(this.zoom / 1.25);
    else if (event.key === '0') this.resetView();
    else return;
    event.preventDefault();
  }

  private onKeyUp(event: KeyboardEvent): void {
    if (event.key === ' ') this.spaceHeld = false;
  }

  private onFocusIn(event: FocusEvent): void {
    const id = ((event.target as Element).closest?.('g.object') as SVGGElement | null)?.dataset.id;
    if (id && !this.connecting && this.selected !== id) this.selected = id;
  }

  private resetView(): void {
    this.zoom = 1;
    this.pan = [40, 40];
    this.tick++;
  }

  private connectTo(id: string): void {
    if (!this.selected || !this.replica) return;
    const connector = this.replica.connect(this.selected, id);
    this.connecting = false;
    if (connector) this.focusObject(id);
  }

  /** Where an image goes up: `POST …/images` answers a signed PUT link and the object's `file_key`. */
  private readonly prepareImage = async (file: File) => {
    const answer = await kit().client.request<{ data: { file_key: string; upload: { url: string; method: string } } }>('POST', `/canvas/boards/${this.boardId}/images`, { body: { content_type: file.type, size_bytes: file.size } });
    return { ...answer.data, url: answer.data.upload.url, method: answer.data.upload.method as 'PUT' };
  };

  /** Once its bytes are in, the image becomes an object, its longer side 240 at most, named by its file. */
  private readonly finishImage = async (file: File, prepared: Record<string, unknown>) => {
    const bitmap = await createImageBitmap(file);
    const scale = 240 / Math.max(bitmap.width, bitmap.height, 1);
    const [width, height] = [Math.max(1, Math.round(bitmap.width * scale)), Math.max(1, Math.round(bitmap.height * scale))];
    bitmap.close();
    this.add('image', { width, height, file_key: prepared.file_key, alt: file.name.slice(0, 500) });
  };

  /** Reads an image object's picture once (a five-minute link, fetched into a blob). */
  private async loadPicture(fileKey: string): Promise<void> {
    this.pictures.set(fileKey, null);
    try {
      const imageId = fileKey.split('/').pop()!;
      const answer = await kit().client.request<{ data: { download: { url: string } } }>('GET', `/canvas/boards/${this.boardId}/images/${imageId}`);
      const response = await fetch(answer.data.download.url);
      if (!response.ok) throw new Error(`The image answered ${response.status}`);
      this.pictures.set(fileKey, URL.createObjectURL(await response.blob()));
      this.tick++;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async memberName(id: string): Promise<void> {
    if (this.names.has(id)) return;
    this.names.set(id, '…');
    try {
      const [member] = await kit().bridge.members([id]);
      this.names.set(id, member?.name ?? 'A member');
    } catch {
      // Not the member's name, only a failed read: asked again at a cursor drawn after a pause.
      this.names.set(id, 'A member');
      setTimeout(() => this.names.delete(id), NAME_AGAIN_MS);
    }
    this.tick++;
  }

  private drawObject(object: BoardObject, byId: Map<string, BoardObject>) {
    const selected = this.selected === object.id;
    const label = objectName(object);
    if (object.type === 'connector') {
      const from = object.from_id ? byId.get(object.from_id) : undefined;
      const to = object.to_id ? byId.get(object.to_id) : undefined;
      const start: [number, number] = from ? [from.x + from.width / 2, from.y + from.height / 2] : [object.x, object.y];
      const end: [number, number] = to ? [to.x + to.width / 2, to.y + to.height / 2] : [object.end_x, object.end_y];
      const [x1, y1] = from ? edgePoint(from, start, end) : start;
      const [x2, y2] = to ? edgePoint(to, end, start) : end;
      const name = `Connector from ${from ? objectName(from) : 'a point'} to ${to ? objectName(to) : 'a point'}`;
      return svg`<g class="object" data-id=${object.id} tabindex="0" role="button" aria-label=${name} aria-pressed=${selected ? 'true' : 'false'}>
        <line x1=${x1} y1=${y1} x2=${x2} y2=${y2} stroke="transparent" stroke-width="14"></line>
        <line class="outline" x1=${x1} y1=${y1} x2=${x2} y2=${y2}></line>
        <line x1=${x1} y1=${y1} x2=${x2} y2=${y2} stroke=${object.color} stroke-width="2" marker-end="url(#arrow)"></line>
      </g>`;
    }
    const { x, y, width, height } = object;
    const body =
      object.type === 'sticky'
        ? svg`<rect x=${x} y=${y} width=${width} height=${height} rx="4" fill=${object.color} stroke="#c9b458"></rect>`
        : object.type === 'shape' && object.shape === 'ellipse'
          ? svg`<ellipse cx=${x + width / 2} cy=${y + height / 2} rx=${width / 2} ry=${height / 2} fill=${object.color} stroke=${object.stroke} stroke-width="2"></ellipse>`
          : object.type === 'shape' && (object.shape === 'diamond' || object.shape === 'triangle')
            ? svg`<polygon points=${shapePoints(object)} fill=${object.color} stroke=${object.stroke} stroke-width="2"></polygon>`
            : object.type === 'shape'
            ? svg`<rect x=${x} y=${y} width=${width} height=${height} fill=${object.color} stroke=${object.stroke} stroke-width="2"></rect>`
            : object.type === 'image'
              ? this.picture(object)
              : nothing;
    return svg`<g class="object" data-id=${object.id} tabindex="0" role="button" aria-label=${label} aria-pressed=${selected ? 'true' : 'false'}>
      ${body}
      ${object.type === 'image' ? nothing : this.label(object)}
      <rect class="outline" x=${x - 4} y=${y - 4} width=${width + 8} height=${height + 8} rx="6"></rect>
    </g>`;
  }

  private label(object: BoardObject) {
    const { x, y, width, height, text } = object;
    return svg`<foreignObject x=${x} y=${y} width=${width} height=${height} aria-hidden="true"><div xmlns="http://www.w3.org/1999/xhtml" class=${object.type === 'text' ? 'label' : 'label center'}>${text}</div></foreignObject>`;
  }

  private picture(object: BoardObject) {
    const { x, y, width, height, file_key: key } = object;
    if (key && !this.pictures.has(key)) void this.loadPicture(key);
    const url = key ? this.pictures.get(key) : null;
    return url
      ? svg`<image href=${url} x=${x} y=${y} width=${width} height=${height} preserveAspectRatio="xMidYMid meet"></image>`
      : svg`<rect x=${x} y=${y} width=${width} height=${height} fill="#eef1f4" stroke="#8a96a3" stroke-dasharray="6 4"></rect>`;
  }

  private drawCursor(cursor: Cursor) {
    if (!this.names.has(cursor.member_id)) void this.memberName(cursor.member_id);
    const name = this.names.get(cursor.member_id) ?? '';
    const scale = 1 / this.zoom;
    return svg`<g class="cursor" data-member=${cursor.member_id} transform="translate(${cursor.x} ${cursor.y}) scale(${scale})">
      <path d="M0 0 L0 16 L4 12 L8 20 L11 18 L7 11 L13 11 Z"></path>
      <rect x="12" y="16" rx="3" width=${Math.max(30, name.length * 7 + 8)} height="18"></rect>
      <text x="16" y="29">${name}</text>
    </g>`;
  }

  private panel(object: BoardObject) {
    const editable = object.type !== 'connector' && object.type !== 'image';
    return html`<section class="panel" aria-label="Selected object">
      <strong>${objectName(object)}</strong>
      ${editable
        ? html`<label for="object-text">Text</label>
            <textarea id="object-text" .value=${object.text} @input=${this.onText} maxlength="10000"></textarea>`
        : nothing}
      <div class="toolbar">
        ${object.type !== 'connector'
          ? html`<button type="button" aria-pressed=${this.connecting ? 'true' : 'false'} @click=${() => (this.connecting = !this.connecting)}>Connect to…</button>`
          : nothing}
        <button type="button" class="danger" @click=${() => this.removeObject(object.id)}>Delete ${objectName(object).split(':')[0].toLowerCase()}</button>
      </div>
      ${this.connecting ? html`<p class="hint muted">Choose the object to connect to: click it, or focus it (Tab) and press Enter.</p>` : nothing}
      <canvas-comments board-id=${this.boardId} object-id=${object.id}></canvas-comments>
    </section>`;
  }

  protected override render() {
    const objects = this.objects;
    const byId = new Map(objects.map((object) => [object.id, object]));
    const current = this.selected ? byId.get(this.selected) : undefined;
    const errors = this.replica?.errors ?? [];
    return html`<div class="head">
        <h1>${this.name || 'Board'}</h1>
        ${appLink('/', 'All boards')}
      </div>
      <div class="toolbar" role="toolbar" aria-label="Board tools">
        <button type="button" @click=${() => this.add('sticky')}>Add sticky note</button>
        <button type="button" @click=${() => this.add('shape', { shape: 'rectangle' })}>Add rectangle</button>
        <button type="button" @click=${() => this.add('shape', { shape: 'ellipse' })}>Add ellipse</button>
        <button type="button" @click=${() => this.add('text', { text: 'Text' })}>Add text</button>
        <span class="sep" aria-hidden="true"></span>
        <button type="button" @click=${() => this.setZoom(this.zoom / 1.25)}>Zoom out</button>
        <span class="zoom" role="status" aria-label="Zoom">${Math.round(this.zoom * 100)}%</span>
        <button type="button" @click=${() => this.setZoom(this.zoom * 1.25)}>Zoom in</button>
        <button type="button" @click=${() => this.resetView()}>Reset view</button>
      </div>
      ${this.error || errors.length ? html`<p class="error" role="alert">${this.error ?? errors[errors.length - 1]}</p>` : nothing}
      ${this.loaded ? this.surfaceOf(objects, byId) : html`<wa-spinner label="Loading the board"></wa-spinner>`}
      <wpk-upload label="Add an image (PNG, JPEG, GIF or WebP)" accept="image/png,image/jpeg,image/gif,image/webp" .prepare=${this.prepareImage} .finish=${this.finishImage}></wpk-upload>
      ${current ? this.panel(current) : nothing}
      <canvas-board-extras board-id=${this.boardId} .selectedId=${this.selected} .nameOf=${this.nameOf}></canvas-board-extras>`;
  }

  private surfaceOf(objects: BoardObject[], byId: Map<string, BoardObject>) {
    const connectors = objects.filter((object) => object.type === 'connector');
    const others = objects.filter((object) => object.type !== 'connector');
    return html`<svg
        class="surface ${this.drag?.kind === 'pan' ? 'panning' : ''}"
        tabindex="0"
        role="group"
        aria-label="Board surface: drag or use the arrow keys to pan, + and - to zoom; Tab reaches each object"
        aria-describedby="count"
        @pointerdown=${this.onPointerDown}
        @pointermove=${this.onPointerMove}
        @pointerup=${this.onPointerUp}
        @pointercancel=${this.onPointerUp}
        @wheel=${this.onWheel}
        @keydown=${this.onKeyDown}
        @keyup=${this.onKeyUp}
        @focusin=${this.onFocusIn}
      >
        <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="#1f2933"></path></marker></defs>
        <g transform="translate(${this.pan[0]} ${this.pan[1]}) scale(${this.zoom})">
          ${repeat([...others, ...connectors], (object) => object.id, (object) => this.drawObject(object, byId))}
          ${repeat(this.replica?.cursors() ?? [], (cursor) => cursor.connection_id, (cursor) => this.drawCursor(cursor))}
        </g>
      </svg>
      <p id="count" class="muted hint">${objects.length} ${objects.length === 1 ? 'object' : 'objects'} on the board.</p>`;
  }
}

customElements.define('canvas-board', CanvasBoard);
