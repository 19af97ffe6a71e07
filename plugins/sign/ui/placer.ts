import { LitElement, css, html, nothing, repeat } from '@wpk/ui';
import type { PdfPages } from './pdfpages.js';

/** A field as the API takes it (page 1-based; x, y, width, height as a share of the page from its top-left), with whose it is. */
export interface PlacedField { id: number; owner: number; type: string; page: number; x: number; y: number; width: number; height: number }

/** A signer fields can be placed for: the recipient's index in the form, and how they read. */
export interface PlacerSigner { owner: number; name: string }

/** The field types the API takes, with the size a new one gets (a share of the page). */
export const FIELD_SIZES: Record<string, { width: number; height: number }> = {
  signature: { width: 0.3, height: 0.06 }, initials: { width: 0.1, height: 0.05 }, date: { width: 0.2, height: 0.04 }, text: { width: 0.4, height: 0.04 }, checkbox: { width: 0.03, height: 0.03 },
};

/** One colour per recipient (in turn), dark enough for text on white. */
export const SIGNER_COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7e22ce', '#a16207', '#0e7490'];

/** A keyboard step, and the Shift one, as a share of the page. */
export const STEP = 0.005;
export const BIG_STEP = 0.05;

const capital = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;
const round = (value: number) => Math.round(value * 10000) / 10000;
const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);
const percent = (share: number) => `${round(share * 100)}`;

/** A field kept on its page: its size at most the page's, its corner so that it fits. */
export function fitted(field: PlacedField): PlacedField {
  const width = round(clamp(field.width, 0.01, 1));
  const height = round(clamp(field.height, 0.01, 1));
  return { ...field, width, height, x: round(clamp(field.x, 0, 1 - width)), y: round(clamp(field.y, 0, 1 - height)) };
}

let nextId = 1;
/** A new field of `type` for `owner` at a corner of `page`. */
export function newField(owner: number, type: string, page: number, x: number, y: number): PlacedField {
  return fitted({ id: nextId++, owner, type, page, x, y, ...FIELD_SIZES[type] });
}

interface Drag { kind: 'new' | 'move' | 'resize'; pointer: number; startX: number; startY: number; moved: boolean; field?: PlacedField; type?: string; owner?: number; ghost?: { x: number; y: number; width: number; height: number } }

/**
 * `<sign-placer>`: the PDF's pages, rendered, with each signer's fields on them. A palette per
 * signer (signature, initials, date, text, checkbox): drag one onto a page, or press it to add one
 * to the page in view. A placed field moves by pointer drag (touch too) or with the arrow keys
 * (Shift: bigger steps; Alt: resizes; Page Up/Down: another page), grows from its corner handle,
 * and goes with Delete or its × button. It fires `fields-change` with every field.
 */
export class SignPlacer extends LitElement {
  static override properties = {
    document: { attribute: false }, signers: { attribute: false }, fields: { attribute: false },
    pages: { state: true }, failed: { state: true }, drag: { state: true },
  };

  static override styles = css`
    :host { display: block; }
    .layout { display: grid; gap: var(--wpk-space-3); grid-template-columns: minmax(0, 1fr); }
    @media (min-width: 48rem) { .layout { grid-template-columns: minmax(11rem, 15rem) minmax(0, 1fr); align-items: start; } .palette { position: sticky; top: var(--wpk-space-2); } }
    .palette { display: flex; flex-direction: column; gap: var(--wpk-space-2); }
    .signer { border-inline-start: 4px solid var(--colour); padding-inline-start: var(--wpk-space-2); }
    .signer h3 { margin: 0 0 var(--wpk-space-1); font-size: var(--wpk-font-size-s); overflow-wrap: anywhere; }
    .types { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); }
    .types button { touch-action: none; user-select: none; font: inherit; font-size: var(--wpk-font-size-s); padding: var(--wpk-space-1) var(--wpk-space-2); border-radius: var(--wpk-radius-s); border: 1px dashed var(--colour); background: var(--wpk-color-surface); color: var(--wpk-color-text); cursor: grab; }
    .hint, .muted { color: var(--wpk-color-text-muted); font-size: var(--wpk-font-size-s); margin: 0; }
    .pages { display: flex; flex-direction: column; gap: var(--wpk-space-3); max-width: 52rem; }
    .page { position: relative; box-shadow: 0 0 0 1px var(--wpk-color-border-strong); background: #fff; line-height: 0; }
    .page canvas { width: 100%; height: auto; display: block; }
    .page-number { position: absolute; inset-inline-end: 0; bottom: 0; line-height: 1.4; font-size: var(--wpk-font-size-xs); padding: 0 var(--wpk-space-1); background: #fff; color: #333; }
    .field { position: absolute; z-index: 1; box-sizing: border-box; border: 2px solid var(--colour); background: rgb(255 255 255 / 0.8); line-height: 1.2; min-width: 1.75rem; min-height: 1.25rem; }
    .field.ghost { pointer-events: none; opacity: 0.7; }
    .grip { position: absolute; inset: 0; width: 100%; height: 100%; padding: 0 1.25rem 0 2px; margin: 0; border: 0; background: transparent; color: #111; font: inherit; font-size: var(--wpk-font-size-xs); text-align: start; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; cursor: move; touch-action: none; user-select: none; }
    .grip:focus-visible { outline: 3px solid var(--colour); outline-offset: 2px; }
    .remove { position: absolute; top: 0; inset-inline-end: 0; width: 1.1rem; height: 1.1rem; padding: 0; border: 0; background: var(--colour); color: #fff; font: inherit; font-size: 0.75rem; line-height: 1; cursor: pointer; }
    .resize { position: absolute; inset-inline-end: -5px; bottom: -5px; width: 12px; height: 12px; background: var(--colour); border: 2px solid #fff; border-radius: 50%; cursor: nwse-resize; touch-action: none; }
    .floating { position: fixed; z-index: 10; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  `;

  declare document: Uint8Array | null;
  declare signers: PlacerSigner[];
  declare fields: PlacedField[];
  declare pages: PdfPages | null;
  declare failed: string | null;
  declare drag: Drag | null;
  private opened: Uint8Array | null = null;
  private drawn = new WeakSet<HTMLCanvasElement>();
  private announcement = '';

  constructor() {
    super();
    this.document = null;
    this.signers = [];
    this.fields = [];
    this.pages = null;
    this.failed = null;
    this.drag = null;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    void this.pages?.close();
  }

  protected override willUpdate(): void {
    if (this.document !== this.opened) {
      this.opened = this.document;
      void this.open(this.document);
    }
  }

  private async open(bytes: Uint8Array | null): Promise<void> {
    const previous = this.pages;
    this.pages = null;
    this.failed = null;
    void previous?.close();
    if (!bytes) return;
    try {
      const { openPdf } = await import('./pdfpages.js');
      const pages = await openPdf(bytes);
      if (this.opened === bytes) this.pages = pages;
      else void pages.close();
    } catch (error) {
      if (this.opened === bytes) this.failed = `This PDF cannot be shown: ${(error as Error).message}`;
    }
  }

  protected override updated(): void {
    // Positions go through the CSSOM: the frame's CSP refuses style attributes.
    for (const element of this.renderRoot.querySelectorAll<HTMLElement>('[data-field]')) {
      const field = this.fields.find((one) => one.id === Number(element.dataset.field));
      if (field) this.place(element, field);
    }
    const ghost = this.renderRoot.querySelector<HTMLElement>('.ghost');
    if (ghost && this.drag?.ghost) for (const [key, value] of Object.entries(this.drag.ghost)) ghost.style.setProperty(key === 'x' ? 'left' : key === 'y' ? 'top' : key, `${value}px`);
    for (const element of this.renderRoot.querySelectorAll<HTMLElement>('[data-owner]')) element.style.setProperty('--colour', this.colourOf(Number(element.dataset.owner)));
    if (this.pages) {
      for (const canvas of this.renderRoot.querySelectorAll<HTMLCanvasElement>('canvas[data-page]')) {
        if (this.drawn.has(canvas)) continue;
        this.drawn.add(canvas);
        const width = Math.min(1600, Math.round(Math.max(canvas.parentElement!.clientWidth, 320) * Math.max(window.devicePixelRatio, 1)));
        void this.pages.draw(Number(canvas.dataset.page), canvas, width).then(() => canvas.toggleAttribute('data-drawn', true), (error: Error) => { this.failed = `Page ${canvas.dataset.page} cannot be shown: ${error.message}`; });
      }
    }
  }

  private place(element: HTMLElement, field: PlacedField): void {
    element.style.setProperty('left', `${field.x * 100}%`);
    element.style.setProperty('top', `${field.y * 100}%`);
    element.style.setProperty('width', `${field.width * 100}%`);
    element.style.setProperty('height', `${field.height * 100}%`);
  }

  private colourOf(owner: number): string {
    const at = this.signers.findIndex((signer) => signer.owner === owner);
    return SIGNER_COLOURS[(at < 0 ? owner : at) % SIGNER_COLOURS.length];
  }

  private nameOf(owner: number): string {
    return this.signers.find((signer) => signer.owner === owner)?.name || `Recipient ${owner + 1}`;
  }

  /** What a field reads as to assistive technology. */
  describe(field: PlacedField): string {
    return `${capital(field.type)} for ${this.nameOf(field.owner)}, page ${field.page}, ${percent(field.x)}% from the left, ${percent(field.y)}% from the top`;
  }

  private change(fields: PlacedField[], focus?: number): void {
    this.fields = fields;
    this.dispatchEvent(new CustomEvent('fields-change', { detail: fields, bubbles: true, composed: true }));
    if (focus !== undefined) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-field="${focus}"] .grip`)?.focus());
  }

  private patchField(id: number, patch: Partial<PlacedField>): void {
    this.change(this.fields.map((field) => (field.id === id ? fitted({ ...field, ...patch }) : field)));
  }

  private removeField(id: number): void {
    const at = this.fields.findIndex((field) => field.id === id);
    const rest = this.fields.filter((field) => field.id !== id);
    const next = rest[Math.min(at, rest.length - 1)];
    this.announcement = 'Field removed';
    this.change(rest, next?.id);
    if (!next) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.types button')?.focus());
  }

  private pageCount(): number {
    return this.pages?.sizes.length ?? 1;
  }

  /** The page whose box holds the middle of the window, else page 1. */
  private pageInView(): number {
    const middle = window.innerHeight / 2;
    for (const element of this.renderRoot.querySelectorAll<HTMLElement>('.page')) {
      const box = element.getBoundingClientRect();
      if (box.top <= middle && box.bottom >= middle) return Number(element.dataset.number);
    }
    return 1;
  }

  /** The page under a point of the window, with the point as a share of it. */
  private pageAt(clientX: number, clientY: number): { page: number; x: number; y: number } | null {
    for (const element of this.renderRoot.querySelectorAll<HTMLElement>('.page')) {
      const box = element.getBoundingClientRect();
      if (clientX >= box.left && clientX <= box.right && clientY >= box.top && clientY <= box.bottom) return { page: Number(element.dataset.number), x: (clientX - box.left) / box.width, y: (clientY - box.top) / box.height };
    }
    return null;
  }

  private pageBox(page: number): DOMRect | null {
    return this.renderRoot.querySelector<HTMLElement>(`.page[data-number="${page}"]`)?.getBoundingClientRect() ?? null;
  }

  // A palette button: a drag drops a new field where it is let go; a press (or Enter) adds one to the page in view.
  private paletteDown(event: PointerEvent, owner: number, type: string): void {
    if (event.button !== 0) return;
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    this.suppressClick = false;
    this.drag = { kind: 'new', pointer: event.pointerId, startX: event.clientX, startY: event.clientY, moved: false, owner, type };
  }

  private paletteClick(owner: number, type: string): void {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const field = newField(owner, type, this.pageInView(), 0.1, 0.1);
    this.announcement = `${this.describe(field)} added`;
    this.change([...this.fields, field], field.id);
  }

  private suppressClick = false;

  private fieldDown(event: PointerEvent, field: PlacedField, kind: 'move' | 'resize'): void {
    if (event.button !== 0) return;
    event.stopPropagation();
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    this.drag = { kind, pointer: event.pointerId, startX: event.clientX, startY: event.clientY, moved: false, field };
  }

  private pointerMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.pointer !== event.pointerId) return;
    const dx = event.clientX - drag.startX;
    const dy = event.clientY - drag.startY;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (drag.kind === 'new') {
      const size = FIELD_SIZES[drag.type!];
      const box = this.pageBox(this.pageAt(event.clientX, event.clientY)?.page ?? 1);
      const width = box ? box.width * size.width : 120;
      const height = box ? box.height * size.height : 30;
      this.drag = { ...drag, moved: true, ghost: { x: event.clientX, y: event.clientY, width, height } };
      return;
    }
    const field = drag.field!;
    const box = this.pageBox(field.page);
    if (!box) return;
    this.drag = { ...drag, moved: true };
    if (drag.kind === 'move') this.patchField(field.id, { x: field.x + dx / box.width, y: field.y + dy / box.height });
    else this.patchField(field.id, { width: field.width + dx / box.width, height: field.height + dy / box.height });
  }

  private pointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.pointer !== event.pointerId) return;
    this.drag = null;
    if (drag.kind === 'new' && drag.moved) {
      this.suppressClick = true;
      const at = this.pageAt(event.clientX, event.clientY);
      if (!at) return;
      const field = newField(drag.owner!, drag.type!, at.page, at.x, at.y);
      this.announcement = `${this.describe(field)} added`;
      this.change([...this.fields, field], field.id);
    } else if (drag.field && drag.moved) {
      const field = drag.field;
      const over = this.pageAt(event.clientX, event.clientY);
      if (drag.kind === 'move' && over && over.page !== field.page) {
        // Let go over another page: it goes there, the point it was held by under the pointer.
        const from = this.pageBox(field.page)!;
        const moved = fitted({ ...field, page: over.page, x: over.x - ((drag.startX - from.left) / from.width - field.x), y: over.y - ((drag.startY - from.top) / from.height - field.y) });
        this.announcement = this.describe(moved);
        this.change(this.fields.map((one) => (one.id === field.id ? moved : one)), field.id);
        return;
      }
      const now = this.fields.find((one) => one.id === field.id);
      if (now) this.announcement = this.describe(now);
    }
  }

  private key(event: KeyboardEvent, field: PlacedField): void {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    let patch: Partial<PlacedField> | null = null;
    if (event.key in arrows) {
      const [dx, dy] = arrows[event.key];
      patch = event.altKey ? { width: field.width + dx, height: field.height + dy } : { x: field.x + dx, y: field.y + dy };
    } else if (event.key === 'PageDown' && field.page < this.pageCount()) patch = { page: field.page + 1 };
    else if (event.key === 'PageUp' && field.page > 1) patch = { page: field.page - 1 };
    else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      this.removeField(field.id);
      return;
    }
    if (!patch) return;
    event.preventDefault();
    const moved = fitted({ ...field, ...patch });
    this.announcement = this.describe(moved);
    this.patchField(field.id, patch);
    if (patch.page) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-field="${field.id}"] .grip`)?.focus());
  }

  private renderField(field: PlacedField) {
    return html`<div class="field" data-field=${field.id} data-owner=${field.owner}>
      <button type="button" class="grip" aria-label=${`${this.describe(field)}. Arrow keys move it, Shift bigger steps, Alt resizes, Delete removes it`}
        @pointerdown=${(event: PointerEvent) => this.fieldDown(event, field, 'move')} @keydown=${(event: KeyboardEvent) => this.key(event, field)}>${capital(field.type)} for ${this.nameOf(field.owner)}</button>
      <button type="button" class="remove" aria-label=${`Remove the ${this.describe(field)}`} @click=${() => this.removeField(field.id)}>×</button>
      <span class="resize" aria-hidden="true" @pointerdown=${(event: PointerEvent) => this.fieldDown(event, field, 'resize')}></span>
    </div>`;
  }

  protected override render() {
    const count = this.pages?.sizes.length ?? 0;
    return html`<div class="layout" @pointermove=${(event: PointerEvent) => this.pointerMove(event)} @pointerup=${(event: PointerEvent) => this.pointerUp(event)} @pointercancel=${() => { this.drag = null; }}>
      <div class="palette">
        ${this.signers.length === 0 ? html`<p class="muted">Add a recipient who signs to place their fields.</p>` : ''}
        ${repeat(this.signers, (signer) => signer.owner, (signer) => html`<section class="signer" data-owner=${signer.owner} aria-label=${`Fields for ${this.nameOf(signer.owner)}`}>
          <h3>${this.nameOf(signer.owner)}</h3>
          <div class="types">${Object.keys(FIELD_SIZES).map((type) => html`<button type="button" data-owner=${signer.owner} aria-label=${`Add ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} field for ${this.nameOf(signer.owner)}`}
            @pointerdown=${(event: PointerEvent) => this.paletteDown(event, signer.owner, type)} @click=${() => this.paletteClick(signer.owner, type)}>${capital(type)}</button>`)}</div>
        </section>`)}
        <p class="hint">Drag a field onto a page, or press it to add it to the page in view. A placed field: drag it, or arrow keys (Shift: bigger steps, Alt: resize, Page Up/Down: another page); Delete removes it.</p>
      </div>
      <div class="pages">
        ${this.failed ? html`<p class="error" role="alert">${this.failed}</p>` : ''}
        ${!this.document ? html`<p class="muted">Choose the PDF: its pages show here, to place the fields on.</p>` : !this.pages && !this.failed ? html`<p class="muted" role="status">Opening the PDF…</p>` : ''}
        ${Array.from({ length: count }, (_, at) => at + 1).map((number) => html`<div class="page" data-number=${number}>
          <canvas data-page=${number} role="img" aria-label=${`Page ${number} of ${count}`}></canvas>
          ${repeat(this.fields.filter((field) => field.page === number && this.signers.some((signer) => signer.owner === field.owner)), (field) => field.id, (field) => this.renderField(field))}
          <span class="page-number" aria-hidden="true">${number} / ${count}</span>
        </div>`)}
      </div>
      ${this.drag?.ghost ? html`<div class="field ghost floating" data-owner=${this.drag.owner!}><span class="grip">${capital(this.drag.type!)}</span></div>` : nothing}
      <p class="sr" role="status" aria-live="polite">${this.announcement}</p>
    </div>`;
  }
}

customElements.define('sign-placer', SignPlacer);
