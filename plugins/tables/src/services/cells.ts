/**
 * Cells by field type: what a write may hold (normalized, or refused with the reason), how a
 * type change converts a cell, and how a cell reads as text (titles, search, CSV).
 */
import { Decimal } from 'decimal.js';
import type { Field, FieldType } from '../models/index.js';

/** Types whose cells the platform computes: a write naming one is refused. */
export const COMPUTED: ReadonlySet<FieldType> = new Set(['lookup', 'rollup', 'formula', 'autonumber']);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL = /^-?\d{1,15}(\.\d+)?$/;

/** The MRN prefix of each kind an MRN field may name. */
export const MRN_PREFIX: Record<string, string> = { member: 'mrn:account:member:', worker: 'mrn:workers:worker:', company: 'mrn:companies:company:', contact: 'mrn:contacts:contact:', task: 'mrn:tasks:task:' };

/** A select field's choices' names. */
export function choicesOf(field: Pick<Field, 'options'>): string[] {
  return ((field.options.choices as Array<{ name: string }> | undefined) ?? []).map((choice) => choice.name);
}

/** The number of decimals of a currency field (default 2). */
export function decimalsOf(field: Pick<Field, 'options'>): number {
  return typeof field.options.decimals === 'number' ? field.options.decimals : 2;
}

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** A cell's written value made canonical; throws an Error naming the rule when it breaks one. Null clears (checkbox: false). */
export function normalize(field: Pick<Field, 'type' | 'options' | 'name'>, value: unknown): unknown {
  if (COMPUTED.has(field.type)) throw new Error(`${field.name} is a ${field.type} field: its value is computed`);
  if (value === null || value === undefined) return field.type === 'checkbox' ? false : null;
  switch (field.type) {
    case 'text':
    case 'long_text': {
      const max = field.type === 'text' ? 1000 : 100_000;
      if (typeof value !== 'string') throw new Error(`${field.name} takes text`);
      if (value.length > max) throw new Error(`${field.name} takes at most ${max} characters`);
      return value === '' ? null : value;
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${field.name} takes a number`);
      return value;
    case 'currency': {
      const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
      if (typeof text !== 'string' || !DECIMAL.test(text.trim())) throw new Error(`${field.name} takes an amount such as "12.50"`);
      const decimals = decimalsOf(field);
      const amount = new Decimal(text.trim());
      if (amount.decimalPlaces() > decimals) throw new Error(`${field.name} takes at most ${decimals} decimals`);
      return amount.toFixed(decimals);
    }
    case 'date':
      if (typeof value !== 'string' || !validDate(value)) throw new Error(`${field.name} takes a date YYYY-MM-DD`);
      return value;
    case 'checkbox':
      if (typeof value !== 'boolean') throw new Error(`${field.name} takes true or false`);
      return value;
    case 'single_select':
      if (typeof value !== 'string' || !choicesOf(field).includes(value)) throw new Error(`${field.name} takes one of: ${choicesOf(field).join(', ')}`);
      return value;
    case 'multiple_select': {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || !choicesOf(field).includes(item))) throw new Error(`${field.name} takes a list of: ${choicesOf(field).join(', ')}`);
      const unique = [...new Set(value as string[])];
      return unique.length ? unique : null;
    }
    case 'member':
      if (typeof value !== 'string' || value.length > 200) throw new Error(`${field.name} takes a member id`);
      return value.toLowerCase();
    case 'link':
      if (!Array.isArray(value) || value.length > 1000 || value.some((item) => typeof item !== 'string' || item.length > 200)) throw new Error(`${field.name} takes a list of record ids`);
      return value.length ? [...new Set((value as string[]).map((id) => id.toLowerCase()))] : null;
    case 'mrn': {
      const prefix = MRN_PREFIX[field.options.source as string];
      const text = typeof value === 'string' ? value : typeof value === 'object' && value && typeof (value as { mrn?: unknown }).mrn === 'string' ? (value as { mrn: string }).mrn : null;
      if (!prefix || !text || !text.startsWith(prefix) || text.length > 300 || text.slice(prefix.length).length === 0 || text.slice(prefix.length).includes(':')) throw new Error(`${field.name} takes the MRN of a ${String(field.options.source)} (${prefix ?? 'mrn:…'}{id})`);
      return text;
    }
    case 'attachment': {
      const ok = Array.isArray(value) && value.length <= 100 && value.every((item) => item && typeof item === 'object' && typeof (item as { key?: unknown }).key === 'string' && typeof (item as { name?: unknown }).name === 'string');
      if (!ok) throw new Error(`${field.name} takes a list of uploaded files ({ key, name })`);
      return (value as unknown[]).length ? value : null;
    }
    default:
      throw new Error(`${field.name} cannot be written`);
  }
}

/** A cell as text: titles, search, CSV and the conversion of a type change. */
export function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => (item && typeof item === 'object' ? String((item as { name?: unknown }).name ?? '') : display(item))).join(', ');
  if (typeof value === 'object') {
    const named = value as { name?: unknown; deleted?: unknown };
    if (typeof named.name === 'string') return named.deleted ? `${named.name} (deleted)` : named.name;
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * A cell converted for a field's new type: `{ value }`, or `{ failed: true }` when the old value
 * means nothing in the new type (the cell is then cleared and the change reports it). Select
 * types gain the choices the values need (`addChoices`).
 */
export function convert(value: unknown, to: Pick<Field, 'type' | 'options' | 'name'>, addChoice: (name: string) => void): { value: unknown } | { failed: true } {
  if (value === null || value === undefined || value === '') return { value: to.type === 'checkbox' ? false : null };
  if (COMPUTED.has(to.type) || to.type === 'link' || to.type === 'attachment') return { value: null };
  if (to.type === 'mrn') return { failed: true };
  const text = display(value).trim();
  const attempt = (candidate: unknown): { value: unknown } | { failed: true } => {
    try {
      return { value: normalize(to, candidate) };
    } catch {
      return { failed: true };
    }
  };
  switch (to.type) {
    case 'text':
      return { value: text.slice(0, 1000) || null };
    case 'long_text':
      return { value: text || null };
    case 'number': {
      const number = typeof value === 'boolean' ? Number(value) : Number(text.replace(/,/g, ''));
      return text !== '' && Number.isFinite(number) ? { value: number } : { failed: true };
    }
    case 'currency': {
      if (!DECIMAL.test(text.replace(/,/g, ''))) return { failed: true };
      return { value: new Decimal(text.replace(/,/g, '')).toDecimalPlaces(decimalsOf(to)).toFixed(decimalsOf(to)) };
    }
    case 'checkbox':
      if (typeof value === 'boolean') return { value };
      if (/^(true|yes|y|1|x|✓)$/i.test(text)) return { value: true };
      if (/^(false|no|n|0)$/i.test(text)) return { value: false };
      return { failed: true };
    case 'single_select':
      if (Array.isArray(value) && value.length !== 1) return value.length ? { failed: true } : { value: null };
      addChoice(text);
      return { value: text };
    case 'multiple_select': {
      const names = Array.isArray(value) ? value.map((item) => display(item).trim()).filter(Boolean) : text.split(',').map((item) => item.trim()).filter(Boolean);
      names.forEach(addChoice);
      return { value: names.length ? [...new Set(names)] : null };
    }
    default:
      return attempt(typeof value === 'string' ? value.trim() : value);
  }
}

/** A cell as a formula reads it: numbers stay numbers, an empty text cell is "", lists read as text. */
export function formulaInput(field: Pick<Field, 'type'> | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return field && ['number', 'currency', 'rollup', 'autonumber', 'checkbox'].includes(field.type) ? null : '';
  if (field?.type === 'currency') return Number(value);
  if (Array.isArray(value) || typeof value === 'object') return display(value);
  return value;
}
