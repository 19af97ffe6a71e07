import type { CanvasObject } from '../services/objects-model.js';
import { boundsOf, boxOf, connectorEnds, wrap, type ImageBytes } from './layout.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const n = (value: number) => String(Math.round(value * 100) / 100);

/** The polygon points of a diamond or triangle in a box. */
export function polygonPoints(shape: 'diamond' | 'triangle', x: number, y: number, width: number, height: number): Array<[number, number]> {
  return shape === 'diamond'
    ? [[x + width / 2, y], [x + width, y + height / 2], [x + width / 2, y + height], [x, y + height / 2]]
    : [[x + width / 2, y], [x + width, y + height], [x, y + height]];
}

function textLines(object: CanvasObject, box: { x: number; y: number; width: number; height: number }, size: number, centred: boolean): string {
  const lines = wrap(object.text ?? '', centred ? box.width - 16 : Math.max(box.width, 1e6), size);
  const lineHeight = size * 1.25;
  const top = centred ? box.y + box.height / 2 - (lines.length * lineHeight) / 2 + size : box.y + size;
  const x = centred ? box.x + box.width / 2 : box.x;
  const fill = object.type === 'text' ? (object.color ?? '#1f2933') : '#1f2933';
  return lines
    .map((line, index) => `<text x="${n(x)}" y="${n(top + index * lineHeight)}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="${n(size)}" fill="${fill}"${centred ? ' text-anchor="middle"' : ''}>${escape(line)}</text>`)
    .join('');
}

/**
 * The board drawn as an SVG document, written by hand: objects bottom to top (z), each rotated
 * about its centre; connectors follow the objects they bind; images are embedded as data URIs.
 */
export function renderSvg(objects: CanvasObject[], images: ImageBytes, title: string): string {
  const bounds = boundsOf(objects);
  const byId = new Map(objects.map((object) => [object.id, object]));
  const parts: string[] = [];
  for (const object of objects) {
    const box = boxOf(object);
    const rotate = object.rotation ? ` transform="rotate(${n(object.rotation)} ${n(box.x + box.width / 2)} ${n(box.y + box.height / 2)})"` : '';
    switch (object.type) {
      case 'sticky':
        parts.push(`<g${rotate}><rect x="${n(box.x + 3)}" y="${n(box.y + 3)}" width="${n(box.width)}" height="${n(box.height)}" fill="#000000" fill-opacity="0.12"/><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" fill="${object.color}"/>${textLines(object, box, 16, true)}</g>`);
        break;
      case 'shape': {
        const style = `fill="${object.color}" stroke="${object.stroke}" stroke-width="2"`;
        let outline: string;
        if (object.shape === 'ellipse') outline = `<ellipse cx="${n(box.x + box.width / 2)}" cy="${n(box.y + box.height / 2)}" rx="${n(box.width / 2)}" ry="${n(box.height / 2)}" ${style}/>`;
        else if (object.shape === 'diamond' || object.shape === 'triangle') outline = `<polygon points="${polygonPoints(object.shape, box.x, box.y, box.width, box.height).map(([px, py]) => `${n(px)},${n(py)}`).join(' ')}" ${style}/>`;
        else outline = `<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" ${style}/>`;
        parts.push(`<g${rotate}>${outline}${textLines(object, box, 16, true)}</g>`);
        break;
      }
      case 'text':
        parts.push(`<g${rotate}>${textLines(object, box, object.font_size ?? 20, false)}</g>`);
        break;
      case 'connector': {
        const { x1, y1, x2, y2 } = connectorEnds(object, byId);
        const end = object.arrow === 'none' ? '' : ' marker-end="url(#arrow)"';
        const start = object.arrow === 'both' ? ' marker-start="url(#arrow-start)"' : '';
        parts.push(`<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${object.color}" stroke-width="2"${end}${start}/>`);
        break;
      }
      case 'image': {
        const image = object.file_key ? images.get(object.file_key) : undefined;
        parts.push(
          image
            ? `<image x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}"${rotate} preserveAspectRatio="xMidYMid meet" href="data:${image.content_type};base64,${image.bytes.toString('base64')}"><title>${escape(object.alt ?? '')}</title></image>`
            : `<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" fill="#eeeeee" stroke="#999999"${rotate}/>`,
        );
        break;
      }
    }
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(bounds.width)}" height="${n(bounds.height)}" viewBox="${n(bounds.x)} ${n(bounds.y)} ${n(bounds.width)} ${n(bounds.height)}">`,
    `<title>${escape(title)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1f2933"/></marker>',
    '<marker id="arrow-start" viewBox="0 0 10 10" refX="1" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M10,0 L0,5 L10,10 z" fill="#1f2933"/></marker></defs>',
    `<rect x="${n(bounds.x)}" y="${n(bounds.y)}" width="${n(bounds.width)}" height="${n(bounds.height)}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
