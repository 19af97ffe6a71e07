import PDFDocument from 'pdfkit';
import type { CanvasObject } from '../services/objects-model.js';
import { boundsOf, boxOf, connectorEnds, wrap, type ImageBytes } from './layout.js';
import { polygonPoints } from './svg.js';

/** PDF pages are at most this many points a side (the format's limit is 14,400): a larger board is scaled down. */
export const PDF_MAX_SIDE = 14_000;

function arrowHead(pdf: PDFKit.PDFDocument, fromX: number, fromY: number, toX: number, toY: number, color: string): void {
  const angle = Math.atan2(toY - fromY, toX - fromX);
  const size = 10;
  pdf
    .polygon([toX, toY], [toX - size * Math.cos(angle - Math.PI / 7), toY - size * Math.sin(angle - Math.PI / 7)], [toX - size * Math.cos(angle + Math.PI / 7), toY - size * Math.sin(angle + Math.PI / 7)])
    .fill(color);
}

/** The board drawn on one PDF page with pdfkit, the same way as the SVG (PNG and JPEG images embedded). */
export function renderPdf(objects: CanvasObject[], images: ImageBytes, title: string): Promise<Buffer> {
  const bounds = boundsOf(objects);
  const scale = Math.min(1, PDF_MAX_SIDE / Math.max(bounds.width, bounds.height));
  const pdf = new PDFDocument({ size: [bounds.width * scale, bounds.height * scale], margin: 0, info: { Title: title, Producer: 'Workspace Platform Kit canvas', Creator: 'canvas' } });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.scale(scale).translate(-bounds.x, -bounds.y);
  pdf.rect(bounds.x, bounds.y, bounds.width, bounds.height).fill('#ffffff');
  const byId = new Map(objects.map((object) => [object.id, object]));
  const centredText = (object: CanvasObject, box: { x: number; y: number; width: number; height: number }) => {
    if (!object.text) return;
    const lines = wrap(object.text, box.width - 16, 14);
    const lineHeight = 14 * 1.25;
    const top = box.y + box.height / 2 - (lines.length * lineHeight) / 2;
    pdf.font('Helvetica').fontSize(14).fillColor('#1f2933');
    lines.forEach((line, index) => pdf.text(line, box.x + 8, top + index * lineHeight, { width: box.width - 16, align: 'center', lineBreak: false }));
  };
  for (const object of objects) {
    const box = boxOf(object);
    pdf.save();
    if (object.rotation && object.type !== 'connector') pdf.rotate(object.rotation, { origin: [box.x + box.width / 2, box.y + box.height / 2] });
    switch (object.type) {
      case 'sticky':
        pdf.rect(box.x + 3, box.y + 3, box.width, box.height).fillOpacity(0.12).fill('#000000').fillOpacity(1);
        pdf.rect(box.x, box.y, box.width, box.height).fill(object.color ?? '#fff59d');
        centredText(object, box);
        break;
      case 'shape':
        if (object.shape === 'ellipse') pdf.ellipse(box.x + box.width / 2, box.y + box.height / 2, box.width / 2, box.height / 2);
        else if (object.shape === 'diamond' || object.shape === 'triangle') pdf.polygon(...polygonPoints(object.shape, box.x, box.y, box.width, box.height));
        else pdf.rect(box.x, box.y, box.width, box.height);
        pdf.lineWidth(2).fillAndStroke(object.color ?? '#ffffff', object.stroke ?? '#1f2933');
        centredText(object, box);
        break;
      case 'text': {
        const size = object.font_size ?? 20;
        pdf.font('Helvetica').fontSize(size).fillColor(object.color ?? '#1f2933');
        (object.text ?? '').split('\n').forEach((line, index) => pdf.text(line, box.x, box.y + index * size * 1.25, { lineBreak: false }));
        break;
      }
      case 'connector': {
        const { x1, y1, x2, y2 } = connectorEnds(object, byId);
        const color = object.color ?? '#1f2933';
        pdf.moveTo(x1, y1).lineTo(x2, y2).lineWidth(2).stroke(color);
        if (object.arrow !== 'none') arrowHead(pdf, x1, y1, x2, y2, color);
        if (object.arrow === 'both') arrowHead(pdf, x2, y2, x1, y1, color);
        break;
      }
      case 'image': {
        const image = object.file_key ? images.get(object.file_key) : undefined;
        if (image && /^image\/(png|jpeg)$/.test(image.content_type)) pdf.image(image.bytes, box.x, box.y, { fit: [box.width, box.height], align: 'center', valign: 'center' });
        else pdf.rect(box.x, box.y, box.width, box.height).fillAndStroke('#eeeeee', '#999999');
        break;
      }
    }
    pdf.restore();
  }
  pdf.end();
  return done;
}
