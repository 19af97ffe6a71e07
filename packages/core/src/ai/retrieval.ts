import type { SearchHit, SearchIndex } from '../search/index.js';

/** Words that carry no meaning for finding records ("which tasks are about the launch?" searches "tasks", "launch"). */
const STOPWORDS = new Set(
  'a an and are as at be been by can could did do does for from had has have how i if in into is it its me my no not of on or our should so than that the their them then there these they this those to up us was we were what when where which who whom why will with would you your about any all also am find give list me please show tell'.split(' '),
);

/** Most words of a question that are searched. */
export const MAX_KEYWORDS = 8;

/** Most records handed to the model or listed. */
export const MAX_RECORDS = 8;

/** The words of a question worth searching: lower-cased, 2+ letters or digits, no stopwords, first MAX_KEYWORDS distinct. */
export function keywordsOf(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept: string[] = [];
  for (const word of words) {
    if (word.length < 2 || STOPWORDS.has(word) || kept.includes(word)) continue;
    kept.push(word);
    if (kept.length === MAX_KEYWORDS) break;
  }
  return kept;
}

/**
 * The records of `types` (the ones the caller may read, already decided) that match the
 * question best: each keyword is searched on its own in the platform index; a record matching
 * more keywords ranks first, then by summed score, then by title. Nothing outside `types` is read,
 * and a record with readers only when it names the asking member (`reader`, as search).
 */
export async function retrieve(index: SearchIndex, workspaceId: string, app: string, types: readonly string[], question: string, reader: readonly string[]): Promise<SearchHit[]> {
  if (types.length === 0) return [];
  const found = new Map<string, { hit: SearchHit; words: number; score: number }>();
  for (const word of keywordsOf(question)) {
    const page = await index.search(workspaceId, app, { q: word, types, typeOrder: false, filters: { attributes: {} }, reader, limit: 20, offset: 0 });
    for (const hit of page.rows) {
      const key = `${hit.type}\u0000${hit.url}`;
      const seen = found.get(key);
      if (seen) {
        seen.words += 1;
        seen.score += hit.score;
      } else found.set(key, { hit, words: 1, score: hit.score });
    }
  }
  return [...found.values()]
    .sort((a, b) => b.words - a.words || b.score - a.score || a.hit.title.localeCompare(b.hit.title) || a.hit.url.localeCompare(b.hit.url))
    .slice(0, MAX_RECORDS)
    .map((entry) => entry.hit);
}
