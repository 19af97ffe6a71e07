import { InvalidError, Joi, newId, POSITION_PATTERN, type JoiArraySchema, type JoiObjectSchema } from '@wpk/sdk';
import { placeholders } from './placeholders.js';

/**
 * A deck's content: a theme and ordered slides, each with a layout, elements and speaker notes,
 * on a 1280 × 720 stage. Joi checks each field (a refusal names it as
 * `slides[i].elements[j].field`); `checkContent` adds the rules between fields (ids unique, a
 * table's rows as wide as its first, a chart's series as long as its labels, an image kept in
 * this deck's storage).
 */
export const STAGE = { width: 1280, height: 720 } as const;
export const LAYOUTS = ['title', 'title_content', 'two_content', 'section', 'image', 'blank'] as const;
export const ELEMENT_TYPES = ['text', 'image', 'shape', 'line', 'table', 'chart'] as const;
export const SHAPES = ['rect', 'rounded_rect', 'ellipse', 'triangle', 'diamond', 'arrow'] as const;
export const CHART_TYPES = ['bar', 'line', 'pie'] as const;
export const FONTS = ['sans', 'serif', 'mono'] as const;
export const ALIGNS = ['left', 'center', 'right'] as const;
export const ARROWS = ['none', 'end', 'both'] as const;
export const ELEMENTS_PER_SLIDE = 100;
export const NOTES_LIMIT = 20_000;
export const TEXT_LIMIT = 5_000;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;

export type Layout = (typeof LAYOUTS)[number];
export type ElementType = (typeof ELEMENT_TYPES)[number];

export interface Theme {
  font: (typeof FONTS)[number];
  background: string;
  text: string;
  accent: string;
}

/** One element of a slide; the fields besides the common ones depend on `type`. */
export interface Element {
  id: string;
  type: ElementType;
  x: number;
  y: number;
  width?: number;
  height?: number;
  rotation?: number;
  text?: string;
  font_size?: number;
  color?: string;
  bold?: boolean;
  italic?: boolean;
  align?: (typeof ALIGNS)[number];
  file_key?: string;
  alt?: string;
  shape?: (typeof SHAPES)[number];
  fill?: string;
  stroke?: string;
  stroke_width?: number;
  end_x?: number;
  end_y?: number;
  arrow?: (typeof ARROWS)[number];
  rows?: string[][];
  header?: boolean;
  chart_type?: (typeof CHART_TYPES)[number];
  labels?: string[];
  series?: Array<{ name: string; values: number[] }>;
}

export interface Slide {
  id: string;
  /** The slide's fractional place in the deck (the document's; a REST write's order is its array's). */
  order?: string;
  layout: Layout;
  elements: Element[];
  notes: string;
  background: string | null;
}

export const DEFAULT_THEME: Theme = { font: 'sans', background: '#ffffff', text: '#1f2937', accent: '#d97706' };

const color = () => Joi.string().pattern(COLOR).messages({ 'string.pattern.base': '{#label} must be a colour #rrggbb' });
const elementId = () => Joi.string().pattern(ID).messages({ 'string.pattern.base': '{#label} must be an id of 1-64 letters, digits, - or _' });
const position = () => Joi.number().min(-STAGE.width).max(STAGE.width * 2);
const size = () => Joi.number().min(1).max(STAGE.width * 2);

const common = {
  id: elementId(),
  x: position().required(),
  y: position().required(),
  width: size().required(),
  height: size().required(),
  rotation: Joi.number().min(-360).max(360),
};
const textStyle = {
  font_size: Joi.number().min(6).max(200),
  color: color(),
  bold: Joi.boolean(),
  italic: Joi.boolean(),
  align: Joi.string().valid(...ALIGNS),
};

/** Each element type's fields; any other field is refused by name. */
const ELEMENT_SCHEMAS: Record<ElementType, JoiObjectSchema> = {
  text: Joi.object({ type: Joi.string().valid('text'), ...common, text: Joi.string().max(TEXT_LIMIT).allow('').required(), ...textStyle }),
  image: Joi.object({ type: Joi.string().valid('image'), ...common, file_key: Joi.string().max(300).required(), alt: Joi.string().max(500).allow('') }),
  shape: Joi.object({ type: Joi.string().valid('shape'), ...common, shape: Joi.string().valid(...SHAPES).required(), fill: color(), stroke: color(), stroke_width: Joi.number().min(0).max(40), text: Joi.string().max(TEXT_LIMIT).allow(''), ...textStyle }),
  line: Joi.object({
    type: Joi.string().valid('line'),
    id: elementId(),
    x: position().required(),
    y: position().required(),
    end_x: position().required(),
    end_y: position().required(),
    stroke: color(),
    stroke_width: Joi.number().min(1).max(40),
    arrow: Joi.string().valid(...ARROWS),
  }),
  table: Joi.object({
    type: Joi.string().valid('table'),
    ...common,
    rows: Joi.array().items(Joi.array().items(Joi.string().max(500).allow('')).min(1).max(12)).min(1).max(30).required(),
    header: Joi.boolean(),
    ...textStyle,
  }),
  chart: Joi.object({
    type: Joi.string().valid('chart'),
    ...common,
    chart_type: Joi.string().valid(...CHART_TYPES).required(),
    labels: Joi.array().items(Joi.string().max(100).allow('')).min(1).max(50).required(),
    series: Joi.array().items(Joi.object({ name: Joi.string().max(100).allow('').required(), values: Joi.array().items(Joi.number().min(-1e12).max(1e12)).min(1).max(50).required() })).min(1).max(10).required(),
  }),
};

const element = () =>
  Joi.alternatives()
    .conditional('.type', {
      // The platform strips unknown keys; an element refuses them instead, by name (a `width` on a line is a mistake worth telling).
      switch: ELEMENT_TYPES.map((type) => ({ is: type, then: ELEMENT_SCHEMAS[type].options({ allowUnknown: false, stripUnknown: false }).messages({ 'object.unknown': `{#label} is not a field of a ${type} element` }) })),
      otherwise: Joi.object({ type: Joi.string().valid(...ELEMENT_TYPES).required() }).unknown(),
    });

/** A slide as written: elements omitted take the layout's placeholders. */
export const slideSchema = () =>
  Joi.object({
    id: elementId(),
    order: Joi.string().pattern(POSITION_PATTERN).messages({ 'string.pattern.base': '{#label} must be an order key: 1-200 letters or digits, not ending in 0' }),
    layout: Joi.string().valid(...LAYOUTS).required(),
    elements: Joi.array().items(element()).max(ELEMENTS_PER_SLIDE),
    notes: Joi.string().max(NOTES_LIMIT).allow(''),
    background: color().allow(null),
  });

/** The theme (a PATCH's fields are merged over the deck's). */
export const themeSchema = () => Joi.object({ font: Joi.string().valid(...FONTS), background: color(), text: color(), accent: color() });

export const slidesSchema = (max: number): JoiArraySchema => Joi.array().items(slideSchema()).max(max);

type SlideInput = Omit<Slide, 'id' | 'elements' | 'notes' | 'background'> & { id?: string; elements?: Array<Omit<Element, 'id'> & { id?: string }>; notes?: string; background?: string | null };

/**
 * Brings written slides to their stored form (ids given where missing, placeholders for a slide
 * without elements) and checks the rules between fields, naming the field of each refusal.
 */
export function normalizeSlides(deckId: string | null, input: SlideInput[], theme: Theme, title = ''): Slide[] {
  const slideIds = new Map<string, number>();
  return input.map((slide, i) => {
    const at = `slides[${i}]`;
    const id = slide.id ?? newId();
    if (slideIds.has(id)) throw new InvalidError(`${at}.id: "${id}" is already the id of slides[${slideIds.get(id)}]`, { field: `${at}.id` });
    slideIds.set(id, i);
    const elements = slide.elements === undefined ? placeholders(slide.layout, theme, i === 0 ? title : '') : slide.elements.map((element, j) => checkElement(deckId, element, `${at}.elements[${j}]`));
    const elementIds = new Map<string, number>();
    elements.forEach((element, j) => {
      if (elementIds.has(element.id)) throw new InvalidError(`${at}.elements[${j}].id: "${element.id}" is already the id of ${at}.elements[${elementIds.get(element.id)}]`, { field: `${at}.elements[${j}].id` });
      elementIds.set(element.id, j);
    });
    return { id, layout: slide.layout, elements, notes: slide.notes ?? '', background: slide.background ?? null };
  });
}

function checkElement(deckId: string | null, input: Omit<Element, 'id'> & { id?: string }, at: string): Element {
  const element = { ...input, id: input.id ?? newId() } as Element;
  const refuse = (field: string, message: string): never => {
    throw new InvalidError(`${at}.${field} ${message}`, { field: `${at}.${field}` });
  };
  if (element.type === 'table') {
    const width = element.rows![0].length;
    element.rows!.forEach((row, k) => {
      if (row.length !== width) refuse(`rows[${k}]`, `must have ${width} cell${width === 1 ? '' : 's'}, as the first row has (it has ${row.length})`);
    });
  }
  if (element.type === 'chart') {
    const count = element.labels!.length;
    element.series!.forEach((series, k) => {
      if (series.values.length !== count) refuse(`series[${k}].values`, `must have ${count} value${count === 1 ? '' : 's'}, one per label (it has ${series.values.length})`);
    });
    if (element.chart_type === 'pie') {
      if (element.series!.length !== 1) refuse('series', 'must hold one series for a pie chart');
      if (element.series![0].values.some((value) => value < 0)) refuse('series[0].values', 'must not be negative in a pie chart');
    }
  }
  if (element.type === 'image' && deckId === null) refuse('file_key', 'must name an image uploaded to the deck: create the deck first, upload through POST /slides/decks/{deck_id}/images, then add the image');
  if (element.type === 'image' && !element.file_key!.startsWith(`decks/${deckId}/images/`)) refuse('file_key', `must name an image uploaded to this deck (decks/${deckId}/images/…; POST /slides/decks/${deckId}/images)`);
  return element;
}

/** Every text of the deck (titles, bodies, table cells), for search. */
export function deckText(slides: Slide[]): string {
  const parts: string[] = [];
  for (const slide of slides) {
    for (const element of slide.elements) {
      if (element.text) parts.push(element.text);
      if (element.rows) parts.push(...element.rows.flat().filter(Boolean));
    }
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim().slice(0, 2000);
}

/** The file keys of the deck's images. */
export function imageKeys(slides: Slide[]): string[] {
  return [...new Set(slides.flatMap((slide) => slide.elements.flatMap((element) => (element.type === 'image' && element.file_key ? [element.file_key] : []))))];
}
