import { Resvg } from '@resvg/resvg-js';

/** The largest side of a PNG export, in pixels: a larger board is scaled down to fit. */
export const PNG_MAX_SIDE = 4096;

/** The board's SVG rasterised by resvg (system fonts; white background). */
export function renderPng(svg: string, width: number, height: number): Buffer {
  const fitTo = Math.max(width, height) > PNG_MAX_SIDE ? (width >= height ? { mode: 'width' as const, value: PNG_MAX_SIDE } : { mode: 'height' as const, value: PNG_MAX_SIDE }) : { mode: 'original' as const };
  const resvg = new Resvg(svg, { background: '#ffffff', fitTo, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } });
  return Buffer.from(resvg.render().asPng());
}
