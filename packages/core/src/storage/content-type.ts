import { UnsupportedMediaTypeError } from '@wpk/sdk';
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';

/** How many leading bytes are read to recognise a format (file-type's own sample size). */
export const SNIFF_BYTES = 4100;

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

// Names browsers and tools use for the same format.
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
  'application/x-zip-compressed': 'application/zip',
  'application/x-pdf': 'application/pdf',
  'text/xml': 'application/xml',
  'audio/mp4': 'video/mp4',
  'application/mp4': 'video/mp4',
  'audio/x-m4a': 'audio/mp4',
};

/** A declared media type reduced to `type/subtype`, lower case, parameters dropped; null when it is not one. */
export function normalizeMediaType(value: string): string | null {
  const bare = value.split(';')[0].trim().toLowerCase();
  return MEDIA_TYPE.test(bare) ? bare : null;
}

const canonical = (type: string) => ALIASES[type] ?? type;
const isXml = (type: string) => type === 'application/xml' || type.endsWith('+xml');
// Formats recognised by their bytes only when a marker is present (text has none): a declared
// text type is believed unless the bytes are recognisably something else.
const isTextual = (type: string) => type.startsWith('text/') || isXml(type) || type === 'application/json' || type.endsWith('+json') || type === 'application/javascript';

const KNOWN = new Set<string>([...supportedMimeTypes].map(canonical));

/** The bytes of a format file-type recognises, or undefined (text, unknown formats). */
export async function sniff(head: Uint8Array): Promise<string | undefined> {
  if (head.length === 0) return undefined;
  return (await fileTypeFromBuffer(head))?.mime;
}

/**
 * The media type an object is stored with. Without a declared type (or with
 * `application/octet-stream`), the sniffed one, else `application/octet-stream`. With one, the
 * declared type when the bytes agree: the same format (aliases allowed), text the sniffer cannot
 * place, or a format the sniffer does not know. A declared format the sniffer knows and the bytes
 * are not, or text whose bytes are a binary format, is refused (415) naming both: the declared
 * type alone is never trusted.
 */
export async function decideContentType(declared: string | undefined, head: Uint8Array): Promise<string> {
  const sniffed = await sniff(head);
  if (declared === undefined || declared === 'application/octet-stream') return sniffed ?? 'application/octet-stream';
  if (sniffed === undefined) {
    // A format the sniffer does not know cannot be checked: it is taken as declared.
    if (isTextual(declared) || head.length === 0 || !KNOWN.has(canonical(declared))) return declared;
    throw new UnsupportedMediaTypeError(`The content is not ${declared} as declared (its bytes are not of a format that type names)`);
  }
  const a = canonical(declared);
  const b = canonical(sniffed);
  if (a === b || (isXml(a) && isXml(b))) return declared;
  throw new UnsupportedMediaTypeError(`The content is ${sniffed}, not ${declared} as declared`);
}
