// RFC 5987's attr-char: the only characters an ext-value may carry unencoded.
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

/** Percent-encodes every UTF-8 byte of `text` outside RFC 5987's attr-char. */
function extValue(text: string): string {
  let encoded = '';
  for (const char of text) {
    if (ATTR_CHAR.test(char)) {
      encoded += char;
      continue;
    }
    for (const byte of Buffer.from(char, 'utf8')) encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/**
 * A `Content-Disposition` header for a download (RFC 6266): `filename*` carries the exact name,
 * UTF-8 and percent-encoded, so any name a user gave a file survives (quotes, accents, emoji, line
 * breaks); `filename` is an ASCII fallback for the rare client without `filename*` (characters
 * outside printable ASCII, quotes, backslashes and `%` become `_`). Every download of the platform
 * and its apps is named through it.
 */
export function contentDisposition(filename: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const name = (String(filename) as string & { toWellFormed(): string }).toWellFormed();
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${extValue(name)}`;
}

/**
 * A title as a file's name (without its extension): path separators, control characters and the
 * characters file systems refuse (`\ / : * ? " < > |`) become `-` (a run of them one), trimmed;
 * `fallback` when nothing is left.
 */
export function fileNameOf(title: string, fallback = 'Untitled'): string {
  return [...String(title)].map((char) => (char.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(char) ? '-' : char)).join('').replace(/-{2,}/g, '-').trim() || fallback;
}
