import { QueryTypes, type Sequelize } from 'sequelize';
import type { Migration } from '../migrations.js';

async function extensionSchema(sequelize: Sequelize, name: string): Promise<string> {
  const rows = await sequelize.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = :name`,
    { type: QueryTypes.SELECT, replacements: { name } },
  );
  if (!rows[0]) throw new Error(`The search index needs the ${name} extension (created by 0001-platform-base)`);
  if (!/^[a-z_][a-z0-9_]*$/.test(rows[0].schema)) throw new Error(`Unexpected schema name for ${name}: ${rows[0].schema}`);
  return rows[0].schema;
}

/**
 * The platform search index: one row per searchable record (fed by apps through `ctx.search`),
 * and a per-workspace dictionary of the distinct words those records contain. See
 * docs/search.md for how the query engine uses them.
 *
 * - `search_normalize` (lower + unaccent) is declared IMMUTABLE around unaccent, which is only
 *   STABLE because its dictionary could change; the dictionary is named explicitly, so the
 *   wrapper is safe to use for stored columns.
 * - Words are the text between ASCII white space and ASCII punctuation (a fixed set, so the
 *   split is the same on every locale and on the embedded database), capped at 100 characters.
 * - The dictionary is fed by statement triggers (any writer, one INSERT per statement, no lock
 *   taken on existing words) and emptied of stale words by `SearchIndex.pruneDictionary`.
 */
export const migration: Migration = {
  name: '0400-search',
  async up({ sequelize }) {
    const unaccent = await extensionSchema(sequelize, 'unaccent');
    const trgm = await extensionSchema(sequelize, 'pg_trgm');
    const fuzzy = await extensionSchema(sequelize, 'fuzzystrmatch');
    await sequelize.query(`
      CREATE FUNCTION platform.search_normalize(value text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$ SELECT lower(${unaccent}.unaccent('${unaccent}.unaccent'::regdictionary, value)) $fn$;

      CREATE FUNCTION platform.search_tokens(value text) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$
          SELECT coalesce(array_agg(DISTINCT left(token, 100) ORDER BY left(token, 100)), '{}')
          FROM regexp_split_to_table(value, '[[:space:]!-/:-@[-\`{-~]+') AS token
          WHERE token <> ''
        $fn$;

      CREATE FUNCTION platform.search_trigrams(value text) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$ SELECT ${trgm}.show_trgm(value) $fn$;

      CREATE FUNCTION platform.search_distance(a text, b text, max_edits int) RETURNS int
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$ SELECT ${fuzzy}.levenshtein_less_equal(a, b, max_edits) $fn$;

      CREATE TYPE platform.search_derived AS (first_name text, name_text text, search_text text, name_words text[], words text[]);

      -- Every searchable column of a record, normalised: the first name column (white space
      -- collapsed, for the exact and prefix rules), the name columns with the badge, all text,
      -- and their words. Each column's first 2000 characters are searchable.
      CREATE FUNCTION platform.search_derive(names text[], badge text, details text[]) RETURNS platform.search_derived
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $fn$
          WITH n AS (
            SELECT platform.search_normalize(array_to_string(ARRAY(
              SELECT left(v, 2000) FROM unnest(coalesce(names, '{}') || coalesce(badge, '')) AS v WHERE v IS NOT NULL AND v <> ''), E'\\n')) AS t
          ), d AS (
            SELECT platform.search_normalize(array_to_string(ARRAY(
              SELECT left(v, 2000) FROM unnest(coalesce(details, '{}')) AS v WHERE v IS NOT NULL AND v <> ''), E'\\n')) AS t
          )
          SELECT btrim(regexp_replace(platform.search_normalize(left(coalesce(names[1], ''), 2000)), '[[:space:]]+', ' ', 'g')),
                 n.t, n.t || E'\\n' || d.t, platform.search_tokens(n.t), platform.search_tokens(n.t || E'\\n' || d.t)
          FROM n, d
        $fn$;

      CREATE TABLE platform.search_records (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        app varchar(100) NOT NULL,
        type varchar(100) NOT NULL,
        record_id varchar(200) NOT NULL,
        badge varchar(100) NOT NULL DEFAULT '',
        title text NOT NULL,
        subtitle text NOT NULL DEFAULT '',
        url text NOT NULL,
        first_name text NOT NULL,
        name_text text NOT NULL,
        search_text text NOT NULL,
        name_words text[] NOT NULL,
        words text[] NOT NULL,
        owner text,
        record_date timestamptz,
        size bigint,
        kind text,
        attributes jsonb NOT NULL DEFAULT '{}',
        indexed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT search_records_key UNIQUE (workspace_id, app, type, record_id)
      );
      CREATE INDEX search_records_words ON platform.search_records USING gin (words);
      CREATE INDEX search_records_text ON platform.search_records USING gin (search_text ${trgm}.gin_trgm_ops);

      CREATE TABLE platform.search_words (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        word text NOT NULL,
        -- The word's trigrams when it can be a typo target (letters only, 3-64 characters).
        grams text[],
        PRIMARY KEY (workspace_id, word)
      );
      CREATE INDEX search_words_word ON platform.search_words USING gin (word ${trgm}.gin_trgm_ops);
      CREATE INDEX search_words_grams ON platform.search_words USING gin (grams) WHERE grams IS NOT NULL;

      CREATE FUNCTION platform.search_words_collect() RETURNS trigger
        LANGUAGE plpgsql
        AS $fn$
        BEGIN
          -- Shared with other writers, exclusive for the pruner: a word is never pruned while a
          -- transaction that still needs it is in flight.
          PERFORM pg_advisory_xact_lock_shared(hashtext('wpk-search-words'), hashtext(w.workspace_id::text))
          FROM (SELECT DISTINCT workspace_id FROM changed ORDER BY 1) AS w;
          INSERT INTO platform.search_words (workspace_id, word, grams)
          SELECT DISTINCT c.workspace_id, w,
                 CASE WHEN length(w) BETWEEN 3 AND 64 AND w !~ '[0-9]' THEN platform.search_trigrams(w) END
          FROM changed c CROSS JOIN LATERAL unnest(c.words) AS w
          ORDER BY 1, 2
          ON CONFLICT (workspace_id, word) DO NOTHING;
          RETURN NULL;
        END
        $fn$;
      CREATE TRIGGER search_words_on_insert AFTER INSERT ON platform.search_records
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION platform.search_words_collect();
      CREATE TRIGGER search_words_on_update AFTER UPDATE ON platform.search_records
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION platform.search_words_collect();
    `);
  },
  async down({ sequelize }) {
    await sequelize.query(`
      DROP TABLE platform.search_words;
      DROP TABLE platform.search_records;
      DROP FUNCTION platform.search_words_collect();
      DROP FUNCTION platform.search_derive(text[], text, text[]);
      DROP TYPE platform.search_derived;
      DROP FUNCTION platform.search_tokens(text);
      DROP FUNCTION platform.search_distance(text, text, int);
      DROP FUNCTION platform.search_trigrams(text);
      DROP FUNCTION platform.search_normalize(text);
    `);
  },
};
