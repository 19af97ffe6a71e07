/** Most words a query may have; every word adds a condition. */
export const MAX_QUERY_WORDS = 12;

/** Shortest word matched through the trigram indexes; shorter words are only checked on rows the others found. */
export const MIN_INDEXED_WORD = 3;

/** The separators between record words: white space, control characters and ASCII punctuation (the set `search_tokens` splits on). */
// eslint-disable-next-line no-control-regex
const SEPARATOR = /[\s\x00-\x1f\x7f!-/:-@[-`{-~]/;
const DIGIT = /[0-9]/;

/** How one query word is matched. */
export type QueryWordKind =
  /** One record word or part of one: found through the dictionary (substring and typo variants). */
  | 'token'
  /** Contains punctuation (`t-42`, `ann@example.com`): a substring of the record's text, through the trigram index. */
  | 'phrase'
  /** One or two characters: a substring, checked only on the rows the other words found. */
  | 'short';

export interface QueryWord {
  /** The normalised word (lower case, accents removed). */
  text: string;
  /** Length in characters. */
  length: number;
  kind: QueryWordKind;
  /** Edits a record word may differ by: 1 for 4-5 letters, 2 for 6 or more, 0 otherwise. */
  edits: 0 | 1 | 2;
}

/**
 * The edit tolerance of a word: 1 edit for words of 4 or 5 letters, 2 for 6 or more; shorter
 * words, and words that are not made of letters only (ids, numbers, e-mail addresses), must
 * appear as typed.
 */
export function editsFor(word: string): 0 | 1 | 2 {
  if (SEPARATOR.test(word) || DIGIT.test(word)) return 0;
  const length = Array.from(word).length;
  if (length >= 6) return 2;
  if (length >= 4) return 1;
  return 0;
}

/**
 * Splits an already normalised query into its distinct words, in order, and classifies each.
 */
export function parseQueryWords(normalized: string): QueryWord[] {
  const seen = new Set<string>();
  const words: QueryWord[] = [];
  for (const text of normalized.split(/\s+/)) {
    if (!text || seen.has(text)) continue;
    seen.add(text);
    const length = Array.from(text).length;
    const kind: QueryWordKind = SEPARATOR.test(text) ? 'phrase' : length < MIN_INDEXED_WORD ? 'short' : 'token';
    words.push({ text, length, kind, edits: editsFor(text) });
  }
  return words;
}

/** Escapes LIKE wildcards (`%`, `_`) and the escape character itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
