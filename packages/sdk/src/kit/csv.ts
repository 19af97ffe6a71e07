import { InvalidError } from '../errors.js';

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

/** One record of a parsed CSV text: its fields and the line it starts on (1-based). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Parses RFC 4180 text (the inverse of `toCsv`): records end with CRLF or LF, a quoted field may
 * hold commas, line breaks and doubled quotes. Each record carries the line it starts on, so a
 * refusal can name it. Blank lines are skipped; a quote left open is an `InvalidError` naming its
 * line. A field `toCsv` made safe for spreadsheets (`'=…`) comes back with its quote: see
 * `csvText`.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let touched = false;
  const endRecord = () => {
    fields.push(field);
    if (touched || fields.length > 1 || field !== '') records.push({ line: start, fields });
    fields = [];
    field = '';
    touched = false;
  };
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else {
        if (character === '\n') line += 1;
        field += character;
      }
      continue;
    }
    if (character === '"' && field === '') {
      quoted = true;
      touched = true;
    } else if (character === ',') {
      fields.push(field);
      field = '';
      touched = true;
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      endRecord();
      line += 1;
      start = line;
    } else field += character;
  }
  if (quoted) throw new InvalidError(`line ${start}: a quoted field is not closed`);
  if (field !== '' || fields.length > 0 || touched) endRecord();
  return records;
}

/** A field as `toCsv` wrote it, back to the text: the quote that kept a spreadsheet from running `=…` is dropped. */
export function csvText(field: string): string {
  return /^'[=+\-@\t\r]/.test(field) ? field.slice(1) : field;
}
