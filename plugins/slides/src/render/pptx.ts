import PptxGenJS from 'pptxgenjs';
import type { Element, Slide, Theme } from '../services/content.js';
import { STAGE } from '../services/content.js';

/**
 * A deck as a PowerPoint file (pptxgenjs): the 16:9 wide layout (13.333 × 7.5 in), each element at
 * its place, speaker notes as the slide's notes. Images come as data URLs (file key → data URL).
 */
const INCH = 13.333 / STAGE.width;
const inches = (value: number | undefined) => Math.round((value ?? 0) * INCH * 1000) / 1000;
const hex = (color: string) => color.replace('#', '').toUpperCase();
const POINTS = 0.75; // px → pt
const FONTS: Record<Theme['font'], string> = { sans: 'Arial', serif: 'Georgia', mono: 'Courier New' };

function addElement(pptx: PptxGenJS, target: PptxGenJS.Slide, element: Element, theme: Theme, images: Map<string, string>): void {
  const place = { x: inches(element.x), y: inches(element.y), w: inches(element.width), h: inches(element.height), rotate: element.rotation ?? 0 };
  const text = { fontSize: Math.round((element.font_size ?? 24) * POINTS), color: hex(element.color ?? theme.text), bold: element.bold ?? false, italic: element.italic ?? false, align: element.align ?? 'left', fontFace: FONTS[theme.font] } as const;
  switch (element.type) {
    case 'text':
      target.addText(element.text ?? '', { ...place, ...text, valign: 'top', margin: 0 });
      return;
    case 'image': {
      const data = images.get(element.file_key ?? '');
      if (data) target.addImage({ ...place, data: data.replace(/^data:/, ''), altText: element.alt ?? '' });
      return;
    }
    case 'shape': {
      const shapes: Record<string, PptxGenJS.ShapeType> = {
        rect: pptx.ShapeType.rect,
        rounded_rect: pptx.ShapeType.roundRect,
        ellipse: pptx.ShapeType.ellipse,
        triangle: pptx.ShapeType.triangle,
        diamond: pptx.ShapeType.diamond,
        arrow: pptx.ShapeType.rightArrow,
      };
      const options = { ...place, fill: { color: hex(element.fill ?? theme.accent) }, ...(element.stroke ? { line: { color: hex(element.stroke), width: (element.stroke_width ?? 1) * POINTS } } : {}) };
      if (element.text) target.addText(element.text, { ...options, ...text, shape: shapes[element.shape!], valign: 'middle' });
      else target.addShape(shapes[element.shape!], options);
      return;
    }
    case 'line': {
      const x = Math.min(element.x, element.end_x!);
      const y = Math.min(element.y, element.end_y!);
      target.addShape(pptx.ShapeType.line, {
        x: inches(x),
        y: inches(y),
        w: inches(Math.abs(element.end_x! - element.x)),
        h: inches(Math.abs(element.end_y! - element.y)),
        flipH: element.end_x! < element.x,
        flipV: element.end_y! < element.y,
        line: { color: hex(element.stroke ?? theme.text), width: (element.stroke_width ?? 3) * POINTS, ...(element.arrow === 'end' || element.arrow === 'both' ? { endArrowType: 'triangle' } : {}), ...(element.arrow === 'both' ? { beginArrowType: 'triangle' } : {}) },
      });
      return;
    }
    case 'table':
      target.addTable(
        (element.rows ?? []).map((row, i) => row.map((cell) => ({ text: cell, options: { bold: i === 0 && element.header === true } }))),
        { ...place, fontSize: Math.round((element.font_size ?? 18) * POINTS), color: hex(element.color ?? theme.text), fontFace: FONTS[theme.font], border: { type: 'solid', pt: 1, color: hex(theme.text) } },
      );
      return;
    case 'chart': {
      const kinds = { bar: 'bar', line: 'line', pie: 'pie' } as const;
      const data = (element.series ?? []).map((series) => ({ name: series.name, labels: element.labels ?? [], values: series.values }));
      target.addChart(kinds[element.chart_type!], data, { ...place, showLegend: data.length > 1 || element.chart_type === 'pie' });
      return;
    }
  }
}

/** The deck as a .pptx file. */
export async function renderPptx(deck: { title: string; theme: Theme; slides: Slide[] }, images: Map<string, string>): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = deck.title;
  for (const slide of deck.slides) {
    const target = pptx.addSlide();
    target.background = { color: hex(slide.background ?? deck.theme.background) };
    for (const element of slide.elements) addElement(pptx, target, element, deck.theme, images);
    if (slide.notes) target.addNotes(slide.notes);
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}
