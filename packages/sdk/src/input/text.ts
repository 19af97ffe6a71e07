/**
 * The platform's one rule for text: a string may hold any Unicode text except NUL (PostgreSQL
 * cannot store U+0000 in text or jsonb, and Sequelize's escaping rewrites it to a literal `\0`)
 * and unpaired UTF-16 surrogates (they have no UTF-8 encoding, so the driver cannot send them).
 */

/** What a refused text field answers, after its name: `name must not contain ...`. */
export const TEXT_RULE = 'must not contain NUL characters or unpaired surrogates';

/** True when the string can be stored and sent as UTF-8 text (no NUL, no unpaired surrogate). */
export function isStorableText(value: string): boolean {
  // isWellFormed (ES2024, in every supported Node): no high surrogate without a low one after it,
  // no low one without a high one before it.
  return !value.includes('\u0000') && (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Where a finding is, from the node it was found in up to the root (built only once one is found). */
interface Finding {
  /** Keys and indexes, innermost first. */
  steps: Array<string | number>;
  /** The finding is a key of the node at `steps`, not a value. */
  inKeys: boolean;
}

function findIn(node: unknown, depth: number): Finding | null {
  if (typeof node === 'string') return isStorableText(node) ? null : { steps: [], inKeys: false };
  // Deeper than any request the platform takes; the JSON parser's own limits apply first.
  if (depth > 100 || node === null || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index += 1) {
      const found = findIn(node[index], depth + 1);
      if (found) {
        found.steps.push(index);
        return found;
      }
    }
    return null;
  }
  const prototype = Object.getPrototypeOf(node);
  if (prototype !== Object.prototype && prototype !== null) return null;
  for (const key of Object.keys(node)) {
    if (!isStorableText(key)) return { steps: [], inKeys: true };
    const found = findIn((node as Record<string, unknown>)[key], depth + 1);
    if (found) {
      found.steps.push(key);
      return found;
    }
  }
  return null;
}

/**
 * The first place in a parsed JSON value (object, array, string) that breaks the text rule, as a
 * joi-style path (`grid.background`, `scopes[2]`, `keys of filters`); null when there is none.
 * `root` names the value itself. Anything else (numbers, Buffers, streams) is not looked into.
 */
export function findUnstorableText(value: unknown, root: string): string | null {
  const found = findIn(value, 0);
  if (!found) return null;
  let path: string | null = null;
  for (let index = found.steps.length - 1; index >= 0; index -= 1) {
    const step = found.steps[index];
    path = typeof step === 'number' ? `${path ?? root}[${step}]` : path ? `${path}.${step}` : step;
  }
  return found.inKeys ? `keys of ${path ?? root}` : (path ?? root);
}
