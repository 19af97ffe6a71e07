import { css, html, kit, svg, type components } from '@wpk/ui';

/** Inline styles are set as the `.style` property (CSSOM), never as an attribute: the frame's CSP refuses style attributes. */
const sm = (text: string) => text;

export type DeckSummary = components['schemas']['SlidesDeckSummary'];
export type Presentation = components['schemas']['SlidesPresentation'];

export interface Element {
  id: string;
  type: 'text' | 'image' | 'shape' | 'line' | 'table' | 'chart';
  x: number;
  y: number;
  width?: number;
  height?: number;
  text?: string;
  font_size?: number;
  color?: string;
  bold?: boolean;
  italic?: boolean;
  align?: string;
  shape?: string;
  fill?: string;
  stroke?: string;
  end_x?: number;
  end_y?: number;
  rows?: string[][];
  labels?: string[];
  series?: Array<{ name: string; values: number[] }>;
  alt?: string;
  [field: string]: unknown;
}
export interface Slide {
  id: string;
  order?: string;
  layout: string;
  elements: Element[];
  notes: string;
  background: string | null;
}
export interface Theme {
  font: string;
  background: string;
  text: string;
  accent: string;
}
export interface Deck {
  id: string;
  title: string;
  version: number;
  theme: Theme;
  slides: Slide[];
  slide_count: number;
  live_presentation_id: string | null;
}

export const LAYOUT_LABELS: Record<string, string> = { title: 'Title', title_content: 'Title and content', two_content: 'Two columns', section: 'Section', image: 'Image', blank: 'Blank' };

export const readDeck = async (id: string): Promise<Deck> => (await kit().client.slides.getSlidesDecksByDeckId({ params: { deck_id: id } })).data as unknown as Deck;

/** A slide's name in lists: its first non-empty text, else its layout. */
export const slideName = (slide: Slide) => slide.elements.find((element) => element.type === 'text' && element.text?.trim())?.text?.trim().split('\n')[0] ?? LAYOUT_LABELS[slide.layout] ?? slide.layout;

const FONTS: Record<string, string> = { sans: 'system-ui, sans-serif', serif: 'Georgia, serif', mono: 'ui-monospace, monospace' };

function elementView(element: Element, theme: Theme) {
  const place = `left:${element.x}px;top:${element.y}px;width:${element.width ?? 0}px;height:${element.height ?? 0}px;`;
  const text = `font-size:${element.font_size ?? 24}px;color:${element.color ?? theme.text};font-weight:${element.bold ? 700 : 400};font-style:${element.italic ? 'italic' : 'normal'};text-align:${element.align ?? 'left'};`;
  switch (element.type) {
    case 'text':
      return html`<div class="el text" .style=${sm(place + text)}>${element.text}</div>`;
    case 'shape': {
      const radius = element.shape === 'ellipse' ? '50%' : element.shape === 'rounded_rect' ? '16px' : '0';
      return html`<div class="el shape" .style=${sm(`${place}${text}background:${element.fill ?? theme.accent};border-radius:${radius};`)}>${element.text ?? ''}</div>`;
    }
    case 'line': {
      const left = Math.min(element.x, element.end_x ?? 0);
      const top = Math.min(element.y, element.end_y ?? 0);
      return html`<svg class="el" aria-hidden="true" .style=${sm(`left:${left}px;top:${top}px;overflow:visible`)} width=${Math.abs((element.end_x ?? 0) - element.x) || 1} height=${Math.abs((element.end_y ?? 0) - element.y) || 1}>${svg`<line x1=${element.x - left} y1=${element.y - top} x2=${(element.end_x ?? 0) - left} y2=${(element.end_y ?? 0) - top} stroke=${element.stroke ?? theme.text} stroke-width="3"></line>`}</svg>`;
    }
    case 'table':
      return html`<table class="el" .style=${sm(place + text + 'font-size:18px')}>${(element.rows ?? []).map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</table>`;
    case 'chart': {
      const values = element.series?.[0]?.values ?? [];
      const max = Math.max(1, ...values);
      return html`<div class="el chart" .style=${sm(place)} role="img" aria-label=${`Chart: ${(element.labels ?? []).join(', ')}`}>${values.map((value) => html`<span .style=${sm(`height:${(Math.max(0, value) / max) * 100}%;background:${theme.accent}`)}></span>`)}</div>`;
    }
    case 'image':
      return html`<div class="el image" .style=${sm(place)} role="img" aria-label=${element.alt || 'Image'}></div>`;
  }
}

/** A slide drawn on its 1280 × 720 stage, scaled to `width` px. */
export function slideView(slide: Slide | undefined, theme: Theme, wanted: number, label: string) {
  // Never wider than the frame leaves room for (a phone).
  const width = Math.max(160, Math.min(wanted, (globalThis.innerWidth || wanted) - 48));
  if (!slide) return html`<div class="stage-frame empty" .style=${sm(`width:${width}px;height:${(width * 9) / 16}px`)}></div>`;
  return html`<div class="stage-frame" role="img" aria-label=${label} .style=${sm(`width:${width}px;height:${(width * 9) / 16}px`)}>
    <div class="stage" .style=${sm(`transform:scale(${width / 1280});background:${slide.background ?? theme.background};font-family:${FONTS[theme.font] ?? FONTS.sans}`)}>${slide.elements.map((element) => elementView(element, theme))}</div>
  </div>`;
}

export const STAGE_STYLES = css`
  .stage-frame { position: relative; overflow: hidden; border: 1px solid var(--wpk-color-border); border-radius: 4px; max-width: 100%; }
  .stage { position: absolute; left: 0; top: 0; width: 1280px; height: 720px; transform-origin: 0 0; }
  .el { position: absolute; box-sizing: border-box; margin: 0; }
  .el.text { white-space: pre-wrap; overflow: hidden; line-height: 1.2; }
  .el.shape { display: flex; align-items: center; justify-content: center; }
  .el.chart { display: flex; align-items: flex-end; gap: 8px; }
  .el.chart span { flex: 1; }
  .el.image { border: 2px dashed currentColor; }
  table.el td { border: 1px solid currentColor; padding: 4px 8px; }
  .muted { color: var(--wpk-color-text-muted); }
  .row { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; }
`;

export const EDITOR_STYLES = css`
  .editor { display: grid; gap: var(--wpk-space-3); }
  .editor > * { min-width: 0; }
  @media (min-width: 900px) { .editor { grid-template-columns: 280px 1fr; } }
  ol.slides { list-style: none; padding: 0; margin: 0; display: grid; gap: var(--wpk-space-1); align-content: start; }
  ol.slides li { display: flex; justify-content: space-between; gap: var(--wpk-space-1); border: 1px solid var(--wpk-color-border); border-radius: 4px; padding: var(--wpk-space-1); }
  ol.slides li.current { border-color: var(--wpk-color-brand, #d97706); }
  .pick { text-align: start; flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
  textarea { width: 100%; box-sizing: border-box; }
  section label { display: block; margin-top: var(--wpk-space-2); }
  .fields { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); align-items: center; border: 1px solid var(--wpk-color-border); border-radius: 4px; }
  .fields input[type='number'] { width: 6em; }
  .stage-edit { touch-action: none; }
  .here span { padding: 2px 8px; border-radius: 999px; color: #fff; font-size: 0.85em; }
`;
