import type { Element, Slide, Theme } from '../services/content.js';
import { STAGE } from '../services/content.js';

/**
 * A deck as one HTML document, one 1280 × 720 page per slide: what the PDF export prints. Images
 * come as data URLs (`images`: file key → data URL); an image not found draws as an empty frame.
 */

const FONT_STACKS: Record<Theme['font'], string> = {
  sans: "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif",
  serif: "'DejaVu Serif', 'Liberation Serif', Georgia, serif",
  mono: "'DejaVu Sans Mono', 'Liberation Mono', monospace",
};

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const px = (value: number | undefined) => `${value ?? 0}px`;

function box(element: Element, extra = ''): string {
  const rotation = element.rotation ? `transform:rotate(${element.rotation}deg);` : '';
  return `position:absolute;left:${px(element.x)};top:${px(element.y)};width:${px(element.width)};height:${px(element.height)};${rotation}${extra}`;
}

function textStyle(element: Element, theme: Theme): string {
  return `font-size:${element.font_size ?? 24}px;color:${element.color ?? theme.text};font-weight:${element.bold ? 700 : 400};font-style:${element.italic ? 'italic' : 'normal'};text-align:${element.align ?? 'left'};`;
}

const SHAPE_PATHS: Record<string, (w: number, h: number) => string> = {
  triangle: (w, h) => `<polygon points="${w / 2},0 ${w},${h} 0,${h}"`,
  diamond: (w, h) => `<polygon points="${w / 2},0 ${w},${h / 2} ${w / 2},${h} 0,${h / 2}"`,
  arrow: (w, h) => `<polygon points="0,${h * 0.3} ${w * 0.65},${h * 0.3} ${w * 0.65},0 ${w},${h / 2} ${w * 0.65},${h} ${w * 0.65},${h * 0.7} 0,${h * 0.7}"`,
};

function chartSvg(element: Element, theme: Theme): string {
  const w = element.width ?? 0;
  const h = element.height ?? 0;
  const labels = element.labels ?? [];
  const series = element.series ?? [];
  const palette = [theme.accent, '#2563eb', '#16a34a', '#dc2626', '#7c3aed', '#0891b2', '#ca8a04', '#db2777', '#4b5563', '#65a30d'];
  if (element.chart_type === 'pie') {
    const values = series[0]?.values ?? [];
    const total = values.reduce((sum, value) => sum + value, 0) || 1;
    const r = Math.min(w, h) / 2;
    let angle = -Math.PI / 2;
    const slices = values.map((value, i) => {
      const next = angle + (value / total) * Math.PI * 2;
      const large = next - angle > Math.PI ? 1 : 0;
      const path = `M${r},${r} L${r + r * Math.cos(angle)},${r + r * Math.sin(angle)} A${r},${r} 0 ${large} 1 ${r + r * Math.cos(next)},${r + r * Math.sin(next)} Z`;
      angle = next;
      return `<path d="${path}" fill="${palette[i % palette.length]}"/>`;
    });
    return `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${slices.join('')}</svg>`;
  }
  const max = Math.max(1, ...series.flatMap((one) => one.values));
  const slot = w / Math.max(1, labels.length);
  const plot = h - 24;
  const parts: string[] = [`<line x1="0" y1="${plot}" x2="${w}" y2="${plot}" stroke="${theme.text}"/>`];
  labels.forEach((label, i) => parts.push(`<text x="${slot * i + slot / 2}" y="${h - 6}" font-size="14" text-anchor="middle" fill="${theme.text}">${escape(label)}</text>`));
  series.forEach((one, s) => {
    const color = palette[s % palette.length];
    if (element.chart_type === 'line') {
      const points = one.values.map((value, i) => `${slot * i + slot / 2},${plot - (Math.max(0, value) / max) * plot}`).join(' ');
      parts.push(`<polyline points="${points}" fill="none" stroke="${color}" stroke-width="3"/>`);
    } else {
      const bar = (slot * 0.8) / Math.max(1, series.length);
      one.values.forEach((value, i) => {
        const height = (Math.max(0, value) / max) * plot;
        parts.push(`<rect x="${slot * i + slot * 0.1 + bar * s}" y="${plot - height}" width="${bar}" height="${height}" fill="${color}"/>`);
      });
    }
  });
  return `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

/** One element as HTML. */
export function elementHtml(element: Element, theme: Theme, images: Map<string, string>): string {
  switch (element.type) {
    case 'text':
      return `<div style="${box(element, textStyle(element, theme))}white-space:pre-wrap;overflow:hidden;line-height:1.2">${escape(element.text ?? '')}</div>`;
    case 'image': {
      const source = images.get(element.file_key ?? '');
      return source ? `<img alt="${escape(element.alt ?? '')}" src="${source}" style="${box(element, 'object-fit:contain;')}">` : `<div style="${box(element, `border:1px dashed ${theme.text};`)}"></div>`;
    }
    case 'shape': {
      const w = element.width ?? 0;
      const h = element.height ?? 0;
      const fill = element.fill ?? theme.accent;
      const stroke = element.stroke ? `stroke="${element.stroke}" stroke-width="${element.stroke_width ?? 1}"` : '';
      const shape =
        element.shape === 'ellipse'
          ? `<ellipse cx="${w / 2}" cy="${h / 2}" rx="${w / 2}" ry="${h / 2}"`
          : element.shape === 'rect' || element.shape === 'rounded_rect'
            ? `<rect x="0" y="0" width="${w}" height="${h}"${element.shape === 'rounded_rect' ? ` rx="${Math.min(w, h) * 0.15}"` : ''}`
            : SHAPE_PATHS[element.shape!](w, h);
      const label = element.text ? `<div style="position:absolute;inset:0;display:flex;align-items:center;justify-content:center;${textStyle(element, theme)}">${escape(element.text)}</div>` : '';
      return `<div style="${box(element)}"><svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" style="position:absolute;inset:0">${shape} fill="${fill}" ${stroke}/></svg>${label}</div>`;
    }
    case 'line': {
      const left = Math.min(element.x, element.end_x!);
      const top = Math.min(element.y, element.end_y!);
      const w = Math.abs(element.end_x! - element.x) + 40;
      const h = Math.abs(element.end_y! - element.y) + 40;
      const stroke = element.stroke ?? theme.text;
      const marker = `<marker id="a-${escape(element.id)}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${stroke}"/></marker>`;
      const ends = element.arrow === 'both' ? `marker-start="url(#a-${escape(element.id)})" marker-end="url(#a-${escape(element.id)})"` : element.arrow === 'end' ? `marker-end="url(#a-${escape(element.id)})"` : '';
      return `<svg style="position:absolute;left:${left - 20}px;top:${top - 20}px" width="${w}" height="${h}"><defs>${marker}</defs><line x1="${element.x - left + 20}" y1="${element.y - top + 20}" x2="${element.end_x! - left + 20}" y2="${element.end_y! - top + 20}" stroke="${stroke}" stroke-width="${element.stroke_width ?? 3}" ${ends}/></svg>`;
    }
    case 'table': {
      const rows = (element.rows ?? []).map((row, i) => {
        const tag = i === 0 && element.header ? 'th' : 'td';
        return `<tr>${row.map((cell) => `<${tag} style="border:1px solid ${theme.text};padding:4px 8px">${escape(cell)}</${tag}>`).join('')}</tr>`;
      });
      return `<table style="${box(element, textStyle({ ...element, font_size: element.font_size ?? 18 }, theme))}border-collapse:collapse">${rows.join('')}</table>`;
    }
    case 'chart':
      return `<div style="${box(element)}">${chartSvg(element, theme)}</div>`;
  }
}

/** One slide as a 1280 × 720 page. */
export function slideHtml(slide: Slide, theme: Theme, images: Map<string, string>): string {
  return `<section class="slide" style="background:${slide.background ?? theme.background}">${slide.elements.map((element) => elementHtml(element, theme, images)).join('')}</section>`;
}

/** The whole deck, ready to print (one page per slide, no margins). */
export function deckHtml(deck: { title: string; theme: Theme; slides: Slide[] }, images: Map<string, string>): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(deck.title)}</title><style>
@page { size: ${STAGE.width}px ${STAGE.height}px; margin: 0 }
html, body { margin: 0; padding: 0 }
body { font-family: ${FONT_STACKS[deck.theme.font]}; -webkit-print-color-adjust: exact; print-color-adjust: exact }
.slide { position: relative; width: ${STAGE.width}px; height: ${STAGE.height}px; overflow: hidden; page-break-after: always; break-after: page }
.slide:last-child { page-break-after: auto; break-after: auto }
</style></head><body>${deck.slides.map((slide) => slideHtml(slide, deck.theme, images)).join('')}</body></html>`;
}
