/**
 * One CSV field per RFC 4180 (quoted when it holds a comma, a quote or a line break; quotes
 * doubled), made safe for spreadsheets: text that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is prefixed with `'` so no spreadsheet runs it as a formula (OWASP's advice).
 * Numbers are written as they are.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of fields as RFC 4180 text: CRLF after every record, the header first. */
export function toCsv(header: string[], rows: Array<Array<string | number | boolean | null | undefined>>): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
