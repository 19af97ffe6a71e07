import * as Y from 'yjs';

/**
 * The shape of a board's objects inside its Yjs document: the root map `objects` holds one Y.Map
 * per object, keyed by the object's id. Each field is its own map entry, so two people changing
 * different fields of one object both keep their change; `text` is a Y.Text, so two people typing
 * in one sticky note keep both their words. This module knows the fields and their bounds, reads
 * a document into plain records and checks what a change left behind.
 */

export const OBJECT_TYPES = ['sticky', 'shape', 'text', 'connector', 'image'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];
export const SHAPES = ['rectangle', 'ellipse', 'diamond', 'triangle'] as const;
export const ARROWS = ['none', 'end', 'both'] as const;
/** The only root of a board's document. */
export const OBJECTS_ROOT = 'objects';
export const OBJECT_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const COLOR = /^#[0-9a-fA-F]{6}$/;
export const COORDINATE_LIMIT = 1_000_000;
export const SIZE_LIMIT = 100_000;
export const TEXT_LIMIT = 10_000;

/** A board object as the API answers it: every field, null where the type has none. */
export interface CanvasObject {
  id: string;
  type: ObjectType;
  x: number;
  y: number;
  width: number | null;
  height: number | null;
  rotation: number;
  z: number;
  text: string | null;
  color: string | null;
  stroke: string | null;
  shape: (typeof SHAPES)[number] | null;
  font_size: number | null;
  end_x: number | null;
  end_y: number | null;
  from_id: string | null;
  to_id: string | null;
  arrow: (typeof ARROWS)[number] | null;
  file_key: string | null;
  alt: string | null;
}

type FieldRule = { check(value: unknown): string | null; default?: unknown };

const number = (min: number, max: number): FieldRule => ({
  check: (value) => (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? null : `must be a number from ${min} to ${max}`),
});
const text: FieldRule = {
  check: (value) => {
    const length = value instanceof Y.Text ? value.length : typeof value === 'string' ? value.length : -1;
    if (length < 0) return 'must be text';
    return length > TEXT_LIMIT ? `must be at most ${TEXT_LIMIT} characters` : null;
  },
};
const color: FieldRule = { check: (value) => (typeof value === 'string' && COLOR.test(value) ? null : 'must be a colour #rrggbb') };
const oneOf = (values: readonly string[]): FieldRule => ({ check: (value) => (typeof value === 'string' && values.includes(value) ? null : `must be one of ${values.join(', ')}`) });
const objectRef: FieldRule = { check: (value) => (value === null || (typeof value === 'string' && OBJECT_ID.test(value)) ? null : 'must be an object id or null') };
const string = (max: number): FieldRule => ({ check: (value) => (typeof value === 'string' && value.length <= max ? null : `must be text of at most ${max} characters`) });

const coordinate = number(-COORDINATE_LIMIT, COORDINATE_LIMIT);
const size = number(1, SIZE_LIMIT);
const COMMON: Record<string, FieldRule> = { x: coordinate, y: coordinate, rotation: number(-360, 360), z: number(-1e12, 1e12) };

/** Per type: its fields (beyond `type`) and which are required. */
export const FIELDS: Record<ObjectType, { rules: Record<string, FieldRule>; required: string[] }> = {
  sticky: { rules: { ...COMMON, width: size, height: size, text, color }, required: ['x', 'y', 'width', 'height'] },
  shape: { rules: { ...COMMON, width: size, height: size, text, color, stroke: color, shape: oneOf(SHAPES) }, required: ['x', 'y', 'width', 'height'] },
  text: { rules: { ...COMMON, width: size, height: size, text, color, font_size: number(4, 400) }, required: ['x', 'y'] },
  connector: { rules: { ...COMMON, end_x: coordinate, end_y: coordinate, from_id: objectRef, to_id: objectRef, arrow: oneOf(ARROWS), color }, required: ['x', 'y', 'end_x', 'end_y'] },
  image: { rules: { ...COMMON, width: size, height: size, file_key: string(300), alt: string(500) }, required: ['x', 'y', 'width', 'height', 'file_key'] },
};

const DEFAULTS: Record<ObjectType, Partial<CanvasObject>> = {
  sticky: { color: '#fff59d', text: '' },
  shape: { color: '#ffffff', stroke: '#1f2933', shape: 'rectangle', text: '' },
  text: { color: '#1f2933', font_size: 20, text: '', width: null, height: null },
  connector: { color: '#1f2933', arrow: 'end', from_id: null, to_id: null },
  image: { alt: '' },
};

/** Why one object of the document is malformed (the first problem), or null. */
export function objectProblem(id: string, value: unknown): string | null {
  if (!OBJECT_ID.test(id)) return `objects: ${JSON.stringify(id.slice(0, 120))} is not an object id (1-100 letters, digits, - or _)`;
  if (!(value instanceof Y.Map)) return `objects.${id}: must be a map of fields`;
  const type = value.get('type');
  if (typeof type !== 'string' || !(OBJECT_TYPES as readonly string[]).includes(type)) return `objects.${id}.type: must be one of ${OBJECT_TYPES.join(', ')}`;
  const { rules, required } = FIELDS[type as ObjectType];
  for (const [field, fieldValue] of value.entries()) {
    if (field === 'type') continue;
    const rule = rules[field];
    if (!rule) return `objects.${id}.${field}: a ${type} has no field ${field}`;
    const problem = rule.check(fieldValue);
    if (problem) return `objects.${id}.${field}: ${problem}`;
  }
  for (const field of required) if (!value.has(field)) return `objects.${id}.${field}: is required for a ${type}`;
  return null;
}

/** The plain record of one (well-formed) object. */
export function presentObject(id: string, map: Y.Map<unknown>): CanvasObject {
  const type = map.get('type') as ObjectType;
  const read = (field: string): unknown => {
    const value = map.get(field);
    return value instanceof Y.Text ? value.toString() : value;
  };
  const defaults = DEFAULTS[type];
  const field = <K extends keyof CanvasObject>(name: K, applies: boolean): CanvasObject[K] => {
    if (!applies) return null as CanvasObject[K];
    const value = read(name);
    return (value === undefined ? (defaults[name] ?? null) : value) as CanvasObject[K];
  };
  const has = (name: string) => name in FIELDS[type].rules;
  return {
    id,
    type,
    x: read('x') as number,
    y: read('y') as number,
    width: field('width', has('width')),
    height: field('height', has('height')),
    rotation: (read('rotation') as number | undefined) ?? 0,
    z: (read('z') as number | undefined) ?? 0,
    text: field('text', has('text')),
    color: field('color', has('color')),
    stroke: field('stroke', has('stroke')),
    shape: field('shape', has('shape')),
    font_size: field('font_size', has('font_size')),
    end_x: field('end_x', has('end_x')),
    end_y: field('end_y', has('end_y')),
    from_id: field('from_id', has('from_id')),
    to_id: field('to_id', has('to_id')),
    arrow: field('arrow', has('arrow')),
    file_key: field('file_key', has('file_key')),
    alt: field('alt', has('alt')),
  };
}

/** The document's objects as records, bottom to top (z, then id); malformed ones are left out. */
export function readObjects(doc: Y.Doc): CanvasObject[] {
  const objects = doc.getMap<unknown>(OBJECTS_ROOT);
  const records: CanvasObject[] = [];
  for (const [id, value] of objects.entries()) {
    if (objectProblem(id, value) !== null) continue;
    records.push(presentObject(id, value as Y.Map<unknown>));
  }
  return records.sort((a, b) => a.z - b.z || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The plain input of an object (HTTP) written into a fresh Y.Map: `text` becomes a Y.Text. */
export function writeFields(map: Y.Map<unknown>, fields: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value === null) {
      map.delete(field);
    } else if (field === 'text') {
      const current = map.get('text');
      if (current instanceof Y.Text) {
        if (current.toString() !== value) {
          current.delete(0, current.length);
          current.insert(0, value as string);
        }
      } else {
        map.set('text', new Y.Text(value as string));
      }
    } else {
      map.set(field, value);
    }
  }
}
