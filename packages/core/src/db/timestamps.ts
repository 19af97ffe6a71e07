import pg from 'pg';
import type { Sequelize } from 'sequelize';

/** PostgreSQL's type oid of `timestamptz`. */
const TIMESTAMPTZ_OID = 1184;

/** pg's own parser of `timestamptz` text (postgres-date): every input the fast path does not take. */
const standardParser = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date | number | null;

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The number written by the ASCII digits of `text` from `start` to `end`; -1 when one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (!isDigit(code)) return -1;
    value = value * 10 + code - 48;
  }
  return value;
}

/**
 * A `timestamptz` as PostgreSQL writes it to the runtime's sessions (ISO style, time zone UTC:
 * `2026-11-27 06:18:01.015+00`), read without regular expressions: the same Date pg's own
 * parser gives, computed the same way (`Date.UTC`, milliseconds as `1000 * parseFloat(fraction)`).
 * Anything else (another offset, a year before 100 or after 9999, BC, infinity) goes to pg's
 * parser. pg's parser runs three regular expressions and a split per value, which made it the
 * largest part of reading a page of rows (docs/decisions/0025-hot-path.md).
 */
export function parseTimestamptz(text: string): Date | number | null {
  const length = text.length;
  if (
    length >= 22 &&
    length <= 29 &&
    text.charCodeAt(4) === 45 && // -
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 32 && // space
    text.charCodeAt(13) === 58 && // :
    text.charCodeAt(16) === 58 &&
    text.charCodeAt(length - 3) === 43 && // +00
    text.charCodeAt(length - 2) === 48 &&
    text.charCodeAt(length - 1) === 48 &&
    (length === 22 || (length >= 24 && text.charCodeAt(19) === 46)) // no fraction, or . and 1-6 digits
  ) {
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 7);
    const day = digits(text, 8, 10);
    const hour = digits(text, 11, 13);
    const minute = digits(text, 14, 16);
    const second = digits(text, 17, 19);
    const fraction = length === 22 ? 0 : digits(text, 20, length - 3);
    if (year >= 100 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0 && fraction >= 0) {
      const milliseconds = length === 22 ? 0 : 1000 * parseFloat(text.slice(19, length - 3));
      return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds));
    }
  }
  return standardParser(text);
}

/**
 * Reads `timestamptz` columns with parseTimestamptz on this Sequelize's connections (its
 * connection manager's own parser table, which every connection it opens consults), leaving
 * pg's global parsers to other users of pg in the process.
 */
export function useFastTimestamps(sequelize: Sequelize): void {
  const manager = (sequelize as unknown as { connectionManager: { oidParserMap?: Map<number, unknown> } }).connectionManager;
  manager.oidParserMap?.set(TIMESTAMPTZ_OID, parseTimestamptz);
}
