/**
 * The text rules iCalendar (RFC 5545) and vCard (RFC 6350) share: a TEXT value's escapes, and
 * content lines folded at 75 octets. For the apps that write `.ics` invitations and `.vcf` cards.
 */

/** A TEXT value escaped: `\`, `;` and `,` backslashed, every line break (CRLF, CR or LF) as `\n`. */
export function escapeContentText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * A content line folded at 75 octets (RFC 5545 3.1, RFC 6350 3.2), never inside a UTF-8
 * character: each continuation line starts with a space, so it holds 74 octets of the value.
 */
export function foldContentLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of line) {
    const size = Buffer.byteLength(character, 'utf8');
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
