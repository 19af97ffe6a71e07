import type { CanvasObject } from '../services/objects-model.js';

/** An image's bytes for rendering, by file key (absent: drawn as a placeholder). */
export type ImageBytes = Map<string, { bytes: Buffer; content_type: string }>;

export const PADDING = 40;
const EMPTY = { x: 0, y: 0, width: 400, height: 300 };

/**
 * Where a connector starts and ends. An end bound to an object that still exists sits where the
 * line between the two ends leaves that object's box (aimed at its centre); an unbound end, or one
 * whose object is gone, is the connector's own point.
 */
export function connectorEnds(connector: CanvasObject, byId: Map<string, CanvasObject>): { x1: number; y1: number; x2: number; y2: number } {
  const boxFor = (id: string | null) => {
    const target = id ? byId.get(id) : undefined;
    return target && target.type !== 'connector' ? boxOf(target) : null;
  };
  const fromBox = boxFor(connector.from_id);
  const toBox = boxFor(connector.to_id);
  const centre = (box: { x: number; y: number; width: number; height: number }) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
  const from = fromBox ? centre(fromBox) : { x: connector.x, y: connector.y };
  const to = toBox ? centre(toBox) : { x: connector.end_x ?? connector.x, y: connector.end_y ?? connector.y };
  const edge = (point: { x: number; y: number }, box: { width: number; height: number } | null, towards: { x: number; y: number }) => {
    if (!box) return point;
    const dx = towards.x - point.x;
    const dy = towards.y - point.y;
    if (dx === 0 && dy === 0) return point;
    const t = Math.min(dx === 0 ? Infinity : box.width / 2 / Math.abs(dx), dy === 0 ? Infinity : box.height / 2 / Math.abs(dy), 1);
    return { x: point.x + dx * t, y: point.y + dy * t };
  };
  const start = edge(from, fromBox, to);
  const end = edge(to, toBox, from);
  return { x1: start.x, y1: start.y, x2: end.x, y2: end.y };
}

/** A text object without a size takes the room its lines need. */
export function boxOf(object: CanvasObject): { x: number; y: number; width: number; height: number } {
  if (object.type === 'text' && (object.width === null || object.height === null)) {
    const size = object.font_size ?? 20;
    const lines = (object.text ?? '').split('\n');
    const width = object.width ?? Math.max(size, ...lines.map((line) => line.length * size * 0.6));
    return { x: object.x, y: object.y, width, height: object.height ?? lines.length * size * 1.25 };
  }
  return { x: object.x, y: object.y, width: object.width ?? 0, height: object.height ?? 0 };
}

/** The area the board's objects cover, with a margin (an empty board: a blank page). */
export function boundsOf(objects: CanvasObject[]): { x: number; y: number; width: number; height: number } {
  if (objects.length === 0) return EMPTY;
  const byId = new Map(objects.map((object) => [object.id, object]));
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const object of objects) {
    if (object.type === 'connector') {
      const { x1, y1, x2, y2 } = connectorEnds(object, byId);
      minX = Math.min(minX, x1, x2);
      minY = Math.min(minY, y1, y2);
      maxX = Math.max(maxX, x1, x2);
      maxY = Math.max(maxY, y1, y2);
    } else {
      const box = boxOf(object);
      minX = Math.min(minX, box.x);
      minY = Math.min(minY, box.y);
      maxX = Math.max(maxX, box.x + box.width);
      maxY = Math.max(maxY, box.y + box.height);
    }
  }
  return { x: minX - PADDING, y: minY - PADDING, width: Math.max(1, maxX - minX + 2 * PADDING), height: Math.max(1, maxY - minY + 2 * PADDING) };
}

/** Breaks text into lines that fit `width` at `size` (an estimate of 0.55 em per character). */
export function wrap(text: string, width: number, size: number): string[] {
  const perLine = Math.max(1, Math.floor(width / (size * 0.55)));
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      if (!word) continue;
      if (!line) line = word;
      else if ((line + ' ' + word).length <= perLine) line += ' ' + word;
      else {
        lines.push(line);
        line = word;
      }
      while (line.length > perLine) {
        lines.push(line.slice(0, perLine));
        line = line.slice(perLine);
      }
    }
    lines.push(line);
  }
  return lines;
}
