import { isHostPath } from '../tenancy/index.js';
import type { ApiAnswer } from './api.js';

/** A form's state for its template: the values to show again and the errors beside each field. */
export interface FormState {
  values: Record<string, string>;
  /** Field name → message, shown beside that field. */
  errors: Record<string, string>;
  /** An error that belongs to no single field (wrong password, throttled, ...). */
  error: string | null;
}

/** A blank form. */
export function blankForm(values: Record<string, string> = {}): FormState {
  return { values, errors: {}, error: null };
}

/**
 * Puts an API refusal beside the field it is about: the refusal's `field` (`email`, or a path
 * such as `permissions.tasks` that lies under the form's `permissions`) decides. A refusal
 * without `field` (a service that words the field only in its message) falls back to the
 * message's first word (`password length must be at least 8 characters long`). Anything else is
 * the form's own error. `renames` maps an API field to the form's when they differ.
 */
export function formFromAnswer(answer: ApiAnswer, fieldNames: string[], values: Record<string, string>, renames: Record<string, string> = {}): FormState {
  const message = answer.body.error ?? `The request failed (${answer.status})`;
  const apiNames = [...fieldNames, ...Object.keys(renames)].sort((a, b) => b.length - a.length);
  const named = answer.body.field;
  const field = typeof named === 'string'
    ? apiNames.find((name) => named === name || named.startsWith(`${name}.`) || named.startsWith(`${name}[`))
    : apiNames.find((name) => message === name || message.startsWith(`${name} `) || message.startsWith(`${name}: `) || message.startsWith(`"${name}" `));
  // Passwords are never echoed back into a page.
  const kept = Object.fromEntries(Object.entries(values).filter(([name]) => !/password|totp|code/.test(name)));
  if (field === undefined) return { values: kept, errors: {}, error: message };
  return { values: kept, errors: { [renames[field] ?? field]: message }, error: null };
}

/** A form payload as plain strings (hapi parses urlencoded forms into objects). */
export function formValues(payload: unknown, names: string[]): Record<string, string> {
  const source = (payload ?? {}) as Record<string, unknown>;
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.length > 0) values[name] = first;
  }
  return values;
}

/**
 * The place to go back to after sign-in: a path on this same host only (`/members?x=1`), never
 * another site (`//evil.test`, `/\evil.test`, `https://...`); anything else is `/`.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return '/';
  if (!isHostPath(value)) return '/';
  // Control characters and backslashes: browsers read some of them as a host separator.
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char === '\\')) return '/';
  return value;
}
