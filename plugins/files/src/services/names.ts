import { InvalidError } from '@wpk/sdk';

/**
 * An item name: 1-255 characters once trimmed; no `/` or `\` (they separate paths in every
 * client), not `.` or `..`, no control character.
 */
export function checkName(raw: string, field = 'name'): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > 255) throw new InvalidError(`${field} must be 1-255 characters`);
  if (/[/\\]/.test(name)) throw new InvalidError(`${field} must not contain / or \\`);
  if (name === '.' || name === '..') throw new InvalidError(`${field} must not be . or ..`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new InvalidError(`${field} must not contain control characters`);
  return name;
}

/** The name columns of an item: `name` and its sort key. */
export function named(name: string): { name: string; sort_name: string } {
  return { name, sort_name: name.toLowerCase() };
}

/**
 * The first free name of the form `stem (n).ext` (n = 2, 3, ...) for a file, `name (n)` for a
 * folder or a file without an extension, where `taken` holds the lower-cased names in use. The
 * extension is the text after the last dot, unless that dot starts the name (`.env`).
 */
export function suffixedName(name: string, kind: 'file' | 'folder', taken: Set<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  const dot = kind === 'file' ? name.lastIndexOf('.') : -1;
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = `${stem.slice(0, 255 - suffix.length - extension.length)}${suffix}${extension}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
