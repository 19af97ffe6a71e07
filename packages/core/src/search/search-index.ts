import { InvalidError, type SearchDocument } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import { toInstant, type SearchFilters } from './filters.js';
import { currentTransaction } from '../db/index.js';
import { escapeLike, MAX_QUERY_WORDS, parseQueryWords, type QueryWord } from './query-words.js';

/** Above this many dictionary words containing a query word, the word is matched on the text's trigram index instead. */
export const MAX_EXPANSION = 400;

/** What one search asks for. The caller has already resolved the app's permitted types. */
export interface SearchQuery {
  /** The query text as typed. */
  q: string;
  /** Types to search; nothing else is ever read. Empty means nothing is found. */
  types: readonly string[];
  /** True when the caller chose the types: results come in this type order, best first within each. */
  typeOrder: boolean;
  filters: SearchFilters;
  /**
   * The names the searching member answers to (`searchReaderOf`: their id and `role:{platform role}`):
   * a record with readers is found only when one of its readers is among them. Absent: no such
   * restriction, so every read on a member's behalf passes it.
   */
  reader?: readonly string[];
  limit: number;
  offset: number;
}

/** One result, as the search endpoint returns it. */
export interface SearchHit {
  type: string;
  /** The record's badge (`T-42`); may be empty. */
  id: string;
  title: string;
  subtitle: string;
  url: string;
  score: number;
}

export interface SearchPage {
  rows: SearchHit[];
  total: number;
}

/** A query word with what the dictionary said about it. */
interface ResolvedWord extends QueryWord {
  /** Dictionary words containing the word (token words), unless there were too many. */
  containing: string[];
  /** True when more than MAX_EXPANSION dictionary words contain it. */
  overflow: boolean;
  /** Dictionary words within the word's edit tolerance that do not contain it. */
  variants: string[];
}

const TEXT_LIMITS = { type: 100, id: 200, badge: 100, title: 1000, subtitle: 1000, url: 2000 } as const;

function requiredText(document: SearchDocument, field: 'type' | 'id' | 'title' | 'url'): string {
  const raw: unknown = document[field];
  const value = typeof raw === 'number' ? String(raw) : raw;
  if (typeof value !== 'string' || value.trim() === '' || value.length > TEXT_LIMITS[field]) {
    throw new TypeError(`search document: ${field} must be a non-empty string of at most ${TEXT_LIMITS[field]} characters`);
  }
  return value;
}

function optionalText(document: SearchDocument, field: 'badge' | 'subtitle'): string {
  const value = document[field];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > TEXT_LIMITS[field]) throw new TypeError(`search document: ${field} must be a string of at most ${TEXT_LIMITS[field]} characters`);
  return value;
}

function columnValues(value: unknown, field: 'names' | 'details'): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value as Record<string, unknown>) : null;
  if (!list || list.length > 50) throw new TypeError(`search document: ${field} must be an array of at most 50 values`);
  return list.filter((item) => item !== null && item !== undefined).map((item) => String(item));
}

interface RecordFilters {
  owner: string | null;
  kind: string | null;
  date: string | null;
  size: number | null;
  attributes: Record<string, string>;
}

/** The platform roles a record's readers may name. */
const READER_ROLES = new Set(['role:owner', 'role:admin', 'role:member']);

/** The record's readers (member ids, `role:` names), or null when everyone who may search its type finds it. */
function recordReaders(document: SearchDocument): string[] | null {
  const readers: unknown = document.readers;
  if (readers === undefined || readers === null) return null;
  if (!Array.isArray(readers) || readers.length > 1000 || readers.some((reader) => typeof reader !== 'string' || reader.length < 1 || reader.length > 200)) {
    throw new TypeError('search document: readers must be an array of at most 1000 member ids or role names');
  }
  const role = (readers as string[]).find((reader) => reader.startsWith('role:') && !READER_ROLES.has(reader));
  if (role !== undefined) throw new TypeError(`search document: readers: ${role} names no platform role (role:owner, role:admin or role:member)`);
  return [...new Set(readers as string[])];
}

function recordFilters(document: SearchDocument): RecordFilters {
  const result: RecordFilters = { owner: null, kind: null, date: null, size: null, attributes: {} };
  for (const [name, value] of Object.entries(document.filters ?? {})) {
    if (value === null || value === undefined) continue;
    if (name === 'date') {
      const date = toInstant(value);
      if (!date) throw new TypeError('search document: filters.date must be a date (YYYY-MM-DD) or an ISO 8601 instant');
      result.date = date.toISOString();
    } else if (name === 'size') {
      const size = Number(value);
      if (!Number.isSafeInteger(size) || size < 0) throw new TypeError('search document: filters.size must be a whole number of 0 or more');
      result.size = size;
    } else if (name === 'owner') {
      result.owner = String(value);
    } else if (name === 'type') {
      result.kind = String(value);
    } else {
      result.attributes[name] = String(value);
    }
  }
  return result;
}


/**
 * The platform search index and its query engine (PostgreSQL only).
 *
 * Writes (`upsert`, `remove`, `removeAll`) join the caller's transaction on their own
 * (AsyncLocalStorage): an app calls them inside its request, so the index never disagrees with
 * the app's data. `search` reads; `pruneDictionary` is maintenance that runs its own
 * transactions and must not be called inside one.
 */
export class SearchIndex {
  constructor(private readonly sequelize: Sequelize) {}

  /** Adds or replaces one record of `app` in the workspace's index. */
  async upsert(workspaceId: string, app: string, document: SearchDocument): Promise<void> {
    const type = requiredText(document, 'type');
    const id = requiredText(document, 'id');
    const title = requiredText(document, 'title');
    const url = requiredText(document, 'url');
    const badge = optionalText(document, 'badge');
    const subtitle = optionalText(document, 'subtitle');
    const names = columnValues(document.names, 'names');
    const details = columnValues(document.details, 'details');
    const filters = recordFilters(document);
    const readers = recordReaders(document);
    // One statement writes the record and its new dictionary words (no trigger: docs/search.md).
    // The record's words already in the dictionary are locked FOR KEY SHARE (writers share it) so
    // that pruneDictionary, which locks a word FOR UPDATE before deleting it, either waits for
    // this transaction and then sees the record, or has deleted the word already, in which case
    // the word is not among the locked rows and is inserted again here. A word another writer
    // added since this statement began conflicts instead: DO UPDATE … WHERE false changes nothing
    // but locks it too (DO NOTHING would leave it unlocked).
    await this.sequelize.query(
      `WITH record AS (
         INSERT INTO platform.search_records AS r
           (workspace_id, app, type, record_id, badge, title, subtitle, url,
            first_name, name_text, search_text, name_words, words, owner, record_date, size, kind, attributes, readers)
         SELECT $1::uuid, $2, $3, $4, $5, $6, $7, $8,
                d.first_name, d.name_text, d.search_text, d.name_words, d.words, $11, $12::timestamptz, $13::bigint, $14, $15::jsonb, $16::text[]
         FROM platform.search_derive($9::text[], $5::text, $10::text[]) AS d
         ON CONFLICT (workspace_id, app, type, record_id) DO UPDATE SET
           badge = EXCLUDED.badge, title = EXCLUDED.title, subtitle = EXCLUDED.subtitle, url = EXCLUDED.url,
           first_name = EXCLUDED.first_name, name_text = EXCLUDED.name_text, search_text = EXCLUDED.search_text,
           name_words = EXCLUDED.name_words, words = EXCLUDED.words, owner = EXCLUDED.owner,
           record_date = EXCLUDED.record_date, size = EXCLUDED.size, kind = EXCLUDED.kind,
           attributes = EXCLUDED.attributes, readers = EXCLUDED.readers, indexed_at = now()
         RETURNING r.words
       ), word AS (
         SELECT DISTINCT w FROM record, unnest(record.words) AS w
       ), known AS (
         SELECT d.word FROM platform.search_words d
          WHERE d.workspace_id = $1::uuid AND d.word IN (SELECT w FROM word)
          ORDER BY d.word
          FOR KEY SHARE
       )
       INSERT INTO platform.search_words (workspace_id, word)
       SELECT $1::uuid, w FROM word WHERE w NOT IN (SELECT k.word FROM known k) ORDER BY w
       ON CONFLICT (workspace_id, word) DO UPDATE SET word = EXCLUDED.word WHERE false`,
      {
        bind: [
          workspaceId, app, type, id, badge, title, subtitle, url,
          names.length > 0 ? names : [title], details,
          filters.owner, filters.date, filters.size, filters.kind, JSON.stringify(filters.attributes), readers,
        ],
      },
    );
  }

  /** Removes one record; true when it was indexed. */
  async remove(workspaceId: string, app: string, type: string, id: string): Promise<boolean> {
    const [row] = await this.sequelize.query<{ removed: number }>(
      `WITH gone AS (DELETE FROM platform.search_records WHERE workspace_id = $1::uuid AND app = $2 AND type = $3 AND record_id = $4 RETURNING 1)
       SELECT count(*)::int AS removed FROM gone`,
      { type: QueryTypes.SELECT, bind: [workspaceId, app, type, String(id)] },
    );
    return row.removed > 0;
  }

  /** Removes every record of an app in a workspace (of one type when given); returns how many. */
  async removeAll(workspaceId: string, app: string, type?: string): Promise<number> {
    const [row] = await this.sequelize.query<{ removed: number }>(
      `WITH gone AS (DELETE FROM platform.search_records WHERE workspace_id = $1::uuid AND app = $2 AND ($3::text IS NULL OR type = $3) RETURNING 1)
       SELECT count(*)::int AS removed FROM gone`,
      { type: QueryTypes.SELECT, bind: [workspaceId, app, type ?? null] },
    );
    return row.removed;
  }

  /**
   * Deletes dictionary words no record of the workspace contains any more (all workspaces when
   * none is given); returns how many. Words are only ever added as records are written, so
   * that no write contends on a shared counter; a stale word costs a little speed, never a
   * wrong result. Runs its own short transactions: never call it inside one.
   */
  async pruneDictionary(workspaceId?: string, batchSize = 1000): Promise<number> {
    if (currentTransaction()) throw new Error('pruneDictionary runs its own transactions; call it outside any transaction');
    const workspaces = workspaceId
      ? [workspaceId]
      : (await this.sequelize.query<{ id: string }>('SELECT DISTINCT workspace_id AS id FROM platform.search_words', { type: QueryTypes.SELECT })).map((row) => row.id);
    let pruned = 0;
    for (const workspace of workspaces) {
      const stale = (
        await this.sequelize.query<{ word: string }>(
          `SELECT word FROM platform.search_words WHERE workspace_id = $1::uuid
           EXCEPT SELECT unnest(words) FROM platform.search_records WHERE workspace_id = $1::uuid`,
          { type: QueryTypes.SELECT, bind: [workspace] },
        )
      ).map((row) => row.word);
      for (let start = 0; start < stale.length; start += batchSize) {
        const batch = stale.slice(start, start + batchSize);
        pruned += await this.sequelize.transaction(async () => {
          // Row locks, not an advisory lock (which would not exclude across the nodes of a
          // distributed database): FOR UPDATE waits for every writer holding one of these words
          // FOR KEY SHARE (see upsert); the delete, a later statement, then sees their records.
          await this.sequelize.query(
            'SELECT word FROM platform.search_words WHERE workspace_id = $1::uuid AND word = ANY($2::text[]) ORDER BY word FOR UPDATE',
            { bind: [workspace, batch] },
          );
          const [row] = await this.sequelize.query<{ removed: number }>(
            `WITH gone AS (
               DELETE FROM platform.search_words d WHERE d.workspace_id = $1::uuid AND d.word = ANY($2::text[])
                 AND NOT EXISTS (SELECT 1 FROM platform.search_records r WHERE r.workspace_id = d.workspace_id AND r.words @> ARRAY[d.word])
               RETURNING 1)
             SELECT count(*)::int AS removed FROM gone`,
            { type: QueryTypes.SELECT, bind: [workspace, batch] },
          );
          return row.removed;
        });
      }
    }
    return pruned;
  }

  /** Runs one search in a workspace's index for one app. */
  async search(workspaceId: string, app: string, query: SearchQuery): Promise<SearchPage> {
    if (query.types.length === 0) return { rows: [], total: 0 };
    const words = await this.queryWords(query.q);
    const resolved = await this.resolve(workspaceId, words);
    if (resolved === null) return { rows: [], total: 0 };
    return this.run(workspaceId, app, query, resolved);
  }

  private async queryWords(q: string): Promise<QueryWord[]> {
    if (q.trim() === '') return [];
    const [row] = await this.sequelize.query<{ normalized: string }>('SELECT platform.search_normalize($1) AS normalized', { type: QueryTypes.SELECT, bind: [q] });
    const words = parseQueryWords(row.normalized);
    if (words.length > MAX_QUERY_WORDS) throw new InvalidError(`q must have at most ${MAX_QUERY_WORDS} words`);
    return words;
  }

  /**
   * Looks the token words up in the workspace's dictionary: the words containing each one, and
   * its typo variants (narrowed by the trigram index and by length, then checked by edit
   * distance). Null when a word matches no word at all, so nothing can be found.
   */
  private async resolve(workspaceId: string, words: QueryWord[]): Promise<ResolvedWord[] | null> {
    const resolved: ResolvedWord[] = words.map((word) => ({ ...word, containing: [], overflow: false, variants: [] }));
    const parts: string[] = [];
    const bind: unknown[] = [workspaceId];
    const param = (value: unknown) => {
      bind.push(value);
      return `$${bind.length}`;
    };
    resolved.forEach((word, index) => {
      if (word.kind !== 'token') return;
      const text = param(word.text);
      parts.push(
        `(SELECT ${index}::int AS i, word, true AS containing FROM platform.search_words
          WHERE workspace_id = $1::uuid AND platform.search_word_keys(workspace_id, word) @> platform.search_substring_keys($1::uuid, ${text}::text) AND strpos(word, ${text}::text) > 0
          LIMIT ${MAX_EXPANSION + 1})`,
      );
      if (word.edits > 0) {
        parts.push(
          `(SELECT ${index}::int AS i, word, false AS containing FROM platform.search_words
            WHERE workspace_id = $1::uuid AND platform.search_word_keys(workspace_id, word) && platform.search_variant_keys($1::uuid, ${text}::text, ${word.edits})
              AND length(word) BETWEEN ${word.length - word.edits} AND ${word.length + word.edits}
              AND platform.search_distance(word, ${text}::text, ${word.edits}) <= ${word.edits}
              AND strpos(word, ${text}::text) = 0)`,
        );
      }
    });
    if (parts.length === 0) return resolved;
    const rows = await this.sequelize.query<{ i: number; word: string; containing: boolean }>(parts.join('\nUNION ALL\n'), { type: QueryTypes.SELECT, bind });
    for (const row of rows) (row.containing ? resolved[row.i].containing : resolved[row.i].variants).push(row.word);
    for (const word of resolved) {
      if (word.kind !== 'token') continue;
      if (word.containing.length > MAX_EXPANSION) {
        word.overflow = true;
        word.containing = [];
      } else if (word.containing.length === 0 && word.variants.length === 0) {
        return null;
      }
    }
    return resolved;
  }

  private async run(workspaceId: string, app: string, query: SearchQuery, words: ResolvedWord[]): Promise<SearchPage> {
    const bind: unknown[] = [workspaceId, app, [...query.types]];
    const param = (value: unknown, cast = '') => {
      bind.push(value);
      return `$${bind.length}${cast}`;
    };
    const where = ['r.workspace_id = $1::uuid', 'r.app = $2', 'r.type = ANY($3::text[])'];
    // Record words are indexed with the workspace tag (see platform.search_tagged).
    const tag = `${workspaceId.replace(/-/g, '').slice(0, 8).toLowerCase()}:`;
    const tagged = (list: string[]) => list.map((item) => tag + item);
    const wordsIndexed = 'platform.search_tagged(r.workspace_id, r.words)';
    const nameHits: string[] = [];
    const textHits: string[] = [];
    for (const word of words) {
      const text = param(word.text, '::text');
      const pattern = () => param(`%${escapeLike(word.text)}%`, '::text');
      const variants = word.variants.length > 0 ? param(word.variants, '::text[]') : null;
      if (word.kind === 'token' && !word.overflow) {
        where.push(`${wordsIndexed} && ${param(tagged([...word.containing, ...word.variants]), '::text[]')}`);
      } else if (word.kind === 'short') {
        where.push(`strpos(r.search_text, ${text}) > 0`);
      } else if (word.variants.length > 0) {
        where.push(`(r.search_text LIKE ${pattern()} OR ${wordsIndexed} && ${param(tagged(word.variants), '::text[]')})`);
      } else {
        where.push(`r.search_text LIKE ${pattern()}`);
      }
      nameHits.push(variants ? `(strpos(r.name_text, ${text}) > 0 OR r.name_words && ${variants})` : `strpos(r.name_text, ${text}) > 0`);
      textHits.push(`strpos(r.search_text, ${text}) > 0`);
    }
    const filters = query.filters;
    if (filters.owner) where.push(`r.owner = ANY(${param(filters.owner, '::text[]')})`);
    if (filters.kind) where.push(`r.kind = ANY(${param(filters.kind, '::text[]')})`);
    if (filters.mrn) {
      // An MRN names its record by searchable type (the MRN's resource) and id: a page's MRN never finds a deck with its id.
      const types = param(filters.mrn.map((entry) => entry.resource), '::text[]');
      const ids = param(filters.mrn.map((entry) => entry.id), '::text[]');
      where.push(`(r.type, r.record_id) IN (SELECT m.type, m.id FROM unnest(${types}, ${ids}) AS m(type, id))`);
    }
    if (filters.after) where.push(`r.record_date >= ${param(filters.after.toISOString(), '::timestamptz')}`);
    if (filters.before) where.push(`r.record_date < ${param(filters.before.toISOString(), '::timestamptz')}`);
    if (filters.minSize !== undefined) where.push(`r.size >= ${param(filters.minSize, '::bigint')}`);
    if (filters.maxSize !== undefined) where.push(`r.size <= ${param(filters.maxSize, '::bigint')}`);
    if (query.reader !== undefined) where.push(`(r.readers IS NULL OR r.readers && ${param([...query.reader], '::text[]')})`);
    for (const [name, values] of Object.entries(filters.attributes)) {
      where.push(`(r.attributes ->> ${param(name, '::text')}) = ANY(${param(values, '::text[]')})`);
    }

    let score = '0::float8';
    let order = 'h.record_date DESC NULLS LAST, h.id DESC';
    if (words.length > 0) {
      const phrase = param(words.map((word) => word.text).join(' '), '::text');
      const count = words.length;
      const sum = (hits: string[]) => hits.map((hit) => `(${hit})::int`).join(' + ');
      // Tiers: exact first name (3), first name starts with the query (2), every word in a
      // name column (1), otherwise (0); within a tier, more name hits, more literal (non-typo)
      // hits and a shorter first name rank higher. The fraction stays below 1.
      const rest = `0.5 * (${sum(nameHits)})::float8 / ${count}
               + 0.3 * (${sum(textHits)})::float8 / ${count}
               + 0.19 / (1 + length(r.first_name) / 32.0::float8)`;
      score = `(CASE WHEN r.first_name = ${phrase} THEN 3 WHEN starts_with(r.first_name, ${phrase}) THEN 2
                     WHEN ${nameHits.join(' AND ')} THEN 1 ELSE 0 END)::float8 + ${rest}`;
      if (/\d/.test(words.map((word) => word.text).join(' '))) {
        // A query with a digit may be (part of) a record's badge (`T-2345`, `2345`, `234`): a
        // record whose badge holds it ranks above every name or text hit (tier 4): its whole
        // number first, then the badge it fills the most of, then one it ends (the distinctive
        // digits of an id are its last ones). The badge is compared as its words joined by spaces.
        const badge = `regexp_replace(lower(r.badge), '[^[:alnum:]]+', ' ', 'g')`;
        score = `CASE WHEN r.badge <> '' AND strpos(${badge}, ${phrase}) > 0 THEN
                   CASE WHEN ${badge} = ${phrase} OR right(${badge}, length(${phrase}) + 1) = ' ' || ${phrase} THEN 4.9::float8
                        ELSE 4 + round(0.8 * length(${phrase})::numeric / length(${badge}), 3)::float8 + 0.0005 * (right(${badge}, length(${phrase})) = ${phrase})::int END
                 ELSE ${score} END`;
      }
      order = 'h.score DESC, h.first_name, h.id';
    }
    if (query.typeOrder) order = `array_position($3::text[], h.type), ${order}`;
    const limit = param(query.limit, '::int');
    const offset = param(query.offset, '::int');
    const sql = `
      WITH hits AS (
        SELECT r.id, r.type, r.first_name, r.record_date, round((${score})::numeric, 4)::float8 AS score
        FROM platform.search_records r
        WHERE ${where.join('\n          AND ')}
      ), page AS (
        SELECT h.*, count(*) OVER () AS total FROM hits h ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}
      )
      SELECT h.total::int AS total, h.score, r.type, r.badge, r.title, r.subtitle, r.url
      FROM page h JOIN platform.search_records r ON r.workspace_id = $1::uuid AND r.id = h.id
      ORDER BY ${order}`;
    const rows = await this.sequelize.query<Omit<SearchHit, 'id'> & { badge: string; total: number }>(sql, { type: QueryTypes.SELECT, bind });
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && query.offset > 0) {
      // Past the last page: the same query's first row still carries the total.
      const [first] = await this.sequelize.query<{ total: number }>(sql, { type: QueryTypes.SELECT, bind: [...bind.slice(0, -2), 1, 0] });
      total = first?.total ?? 0;
    }
    return {
      rows: rows.map((row) => ({ type: row.type, id: row.badge, title: row.title, subtitle: row.subtitle, url: row.url, score: Number(row.score) })),
      total,
    };
  }
}
