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

      -- A plain expression, so the planner inlines it (a SQL function with a query is planned on every call).
      CREATE FUNCTION platform.search_tokens(value text) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$
          SELECT array_remove(regexp_split_to_array(
            regexp_replace(value, '([^[:space:][:cntrl:]!-/:-@[-\`{-~]{100})[^[:space:][:cntrl:]!-/:-@[-\`{-~]+', '\\1', 'g'),
            '[[:space:][:cntrl:]!-/:-@[-\`{-~]+'), '')
        $fn$;

      CREATE FUNCTION platform.search_distance(a text, b text, max_edits int) RETURNS int
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$ SELECT ${fuzzy}.levenshtein_less_equal(a, b, max_edits) $fn$;

      -- Index keys carry a workspace tag, so a lookup reads only that workspace's postings
      -- however many tenants share the index (a tag collision costs speed, never correctness:
      -- every query also filters on workspace_id).
      CREATE FUNCTION platform.search_tag(workspace_id uuid) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$ SELECT left(replace(workspace_id::text, '-', ''), 8) || ':' $fn$;

      -- A record's words with the workspace tag (the record-side GIN index is on this).
      CREATE FUNCTION platform.search_tagged(workspace_id uuid, words text[]) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$
          SELECT CASE WHEN cardinality(words) = 0 THEN '{}'::text[]
                 ELSE string_to_array(platform.search_tag(workspace_id) || array_to_string(words, chr(31) || platform.search_tag(workspace_id)), chr(31)) END
        $fn$;

      -- Dictionary keys of a word (the dictionary's GIN index is on this expression, so the
      -- table itself stays narrow): 's' keys, its trigrams, find the words containing a query
      -- word; 'f' keys, its trigrams by word length and position in '  word ' (padded as
      -- pg_trgm pads), find typo candidates (letters only, 3-64 characters).
      CREATE FUNCTION platform.search_word_keys(workspace_id uuid, word text) RETURNS text[]
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$
        DECLARE
          tag text := platform.search_tag(workspace_id);
          n int := length(word);
          padded text := '  ' || word || ' ';
          keys text[] := '{}';
        BEGIN
          FOR p IN 1 .. n - 2 LOOP
            keys := keys || ('s' || tag || substr(word, p, 3));
          END LOOP;
          IF n BETWEEN 3 AND 64 AND word !~ '[0-9]' THEN
            FOR p IN 0 .. n LOOP
              keys := keys || ('f' || tag || n || ':' || p || ':' || substr(padded, p + 1, 3));
            END LOOP;
          END IF;
          RETURN keys;
        END
        $fn$;

      -- Keys every dictionary word containing \`word\` has (\`word\` of 3 characters or more).
      CREATE FUNCTION platform.search_substring_keys(workspace_id uuid, word text) RETURNS text[]
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$
        DECLARE
          tag text := platform.search_tag(workspace_id);
          keys text[] := '{}';
        BEGIN
          FOR p IN 1 .. length(word) - 2 LOOP
            keys := keys || ('s' || tag || substr(word, p, 3));
          END LOOP;
          RETURN keys;
        END
        $fn$;

      -- Keys of which every word within \`edits\` edits of \`word\` has at least one. Cut the
      -- word (with as little of its padding as needed) into edits + 1 pieces of 3 or more
      -- characters: an edit breaks at most one piece, so one piece survives whole, shifted by at
      -- most \`edits\` positions, in a word whose length differs by at most \`edits\`. Each
      -- piece's first trigram, at each possible position and length, is a key.
      CREATE FUNCTION platform.search_variant_keys(workspace_id uuid, word text, edits int) RETURNS text[]
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $fn$
        DECLARE
          tag text := platform.search_tag(workspace_id);
          n int := length(word);
          padded text := '  ' || word || ' ';
          keys text[] := '{}';
          first int;
          last int;
          pieces int := edits + 1;
          start int;
          tri text;
        BEGIN
          IF n >= 3 * pieces THEN first := 2; last := n + 2;
          ELSIF n + 1 >= 3 * pieces THEN first := 2; last := n + 3;
          ELSIF n + 2 >= 3 * pieces THEN first := 1; last := n + 3;
          ELSE first := 0; last := n + 3;
          END IF;
          FOR piece IN 0 .. pieces - 1 LOOP
            start := first + ((last - first) * piece) / pieces;
            tri := substr(padded, start + 1, 3);
            FOR l IN greatest(3, n - edits) .. n + edits LOOP
              FOR q IN greatest(0, start - edits) .. least(l, start + edits) LOOP
                keys := keys || ('f' || tag || l || ':' || q || ':' || tri);
              END LOOP;
            END LOOP;
          END LOOP;
          RETURN keys;
        END
        $fn$;

      CREATE TYPE platform.search_derived AS (first_name text, name_text text, search_text text, name_words text[], words text[]);

      -- Every searchable column of a record, normalised: the first name column (white space
      -- collapsed, for the exact and prefix rules), the name columns with the badge, all text,
      -- and their words. The first 4000 characters of the names and 8000 of the details are
      -- searchable. PL/pgSQL rather than SQL so its plan is cached.
      CREATE FUNCTION platform.search_derive(names text[], badge text, details text[]) RETURNS platform.search_derived
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
        AS $fn$
        DECLARE
          result platform.search_derived;
        BEGIN
          result.first_name := btrim(regexp_replace(platform.search_normalize(left(coalesce(names[1], ''), 4000)), '[[:space:]]+', ' ', 'g'));
          result.name_text := platform.search_normalize(left(array_to_string(array_remove(coalesce(names, '{}') || coalesce(badge, ''), ''), E'\n'), 4000));
          result.search_text := result.name_text || E'\n' || platform.search_normalize(left(array_to_string(array_remove(coalesce(details, '{}'), ''), E'\n'), 8000));
          result.name_words := platform.search_tokens(result.name_text);
          result.words := platform.search_tokens(result.search_text);
          RETURN result;
        END
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
      CREATE INDEX search_records_words ON platform.search_records USING gin (platform.search_tagged(workspace_id, words));
      CREATE INDEX search_records_text ON platform.search_records USING gin (search_text ${trgm}.gin_trgm_ops);

      CREATE TABLE platform.search_words (
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        word text NOT NULL,
        PRIMARY KEY (workspace_id, word)
      );
      CREATE INDEX search_words_keys ON platform.search_words USING gin (platform.search_word_keys(workspace_id, word));
      -- Searches are short: a parallel plan's start-up costs more than it saves.
      ALTER TABLE platform.search_records SET (parallel_workers = 0);
      ALTER TABLE platform.search_words SET (parallel_workers = 0);

      CREATE FUNCTION platform.search_words_collect() RETURNS trigger
        LANGUAGE plpgsql
        AS $fn$
        BEGIN
          -- Shared with other writers, exclusive for the pruner: a word is never pruned while a
          -- transaction that still needs it is in flight.
          PERFORM pg_advisory_xact_lock_shared(hashtext('wpk-search-words'), hashtext(w.workspace_id::text))
          FROM (SELECT DISTINCT workspace_id FROM changed ORDER BY 1) AS w;
          INSERT INTO platform.search_words (workspace_id, word)
          SELECT n.workspace_id, n.word
          FROM (SELECT DISTINCT c.workspace_id, w AS word FROM changed c CROSS JOIN LATERAL unnest(c.words) AS w) AS n
          WHERE NOT EXISTS (SELECT 1 FROM platform.search_words d WHERE d.workspace_id = n.workspace_id AND d.word = n.word)
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
      DROP FUNCTION platform.search_variant_keys(uuid, text, int);
      DROP FUNCTION platform.search_substring_keys(uuid, text);
      DROP FUNCTION platform.search_word_keys(uuid, text);
      DROP FUNCTION platform.search_tagged(uuid, text[]);
      DROP FUNCTION platform.search_tag(uuid);
      DROP FUNCTION platform.search_distance(text, text, int);
      DROP FUNCTION platform.search_normalize(text);
    `);
  },
};
