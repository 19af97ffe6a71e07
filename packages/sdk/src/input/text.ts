/**
 * The platform's one rule for text: a string may hold any Unicode text except NUL (PostgreSQL
 * cannot store U+0000 in text or jsonb, and Sequelize's escaping rewrites it to a literal `\0`)
 * and unpaired UTF-16 surrogates (they have no UTF-8 encoding, so the driver cannot send them).
 */

// NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a refused text field answers, after its name: `name must not contain ...`. */
export const TEXT_RULE = 'must not contain NUL characters or unpaired surrogates';

/** True when the string can be stored and sent as UTF-8 text (no NUL, no unpaired surrogate). */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * The first place in a parsed JSON value (object, array, string) that breaks the text rule, as a
 * joi-style path (`grid.background`, `scopes[2]`, `keys of filters`); null when there is none.
 * `root` names the value itself. Anything else (numbers, Buffers, streams) is not looked into.
 */
export function findUnstorableText(value: unknown, root: string): string | null {
  const join = (parent: string | null, key: string) => (parent ? `${parent}.${key}` : key);
  const walk = (node: unknown, path: string | null, depth: number): string | null => {
    if (typeof node === 'string') return isStorableText(node) ? null : (path ?? root);
    // Deeper than any request the platform takes; the JSON parser's own limits apply first.
    if (depth > 100 || node === null || typeof node !== 'object') return null;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) {
        const found = walk(node[index], `${path ?? root}[${index}]`, depth + 1);
        if (found) return found;
      }
      return null;
    }
    const prototype = Object.getPrototypeOf(node);
    if (prototype !== Object.prototype && prototype !== null) return null;
    for (const [key, child] of Object.entries(node)) {
      if (!isStorableText(key)) return `keys of ${path ?? root}`;
      const found = walk(child, join(path, key), depth + 1);
      if (found) return found;
    }
    return null;
  };
  return walk(value, null, 0);
}
