-- The current schema in full (what all migrations together make); keep it in step with each new
-- migration: tests/migrations/test_migrations.py checks that both give the same catalog.

-- Core corpus tables: sites, crawl runs, every fetched page (raw bytes kept), extracted articles.

CREATE TABLE sites (
    id          serial PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    languages   text[] NOT NULL DEFAULT '{}'    -- articles kept only in these (empty: any), as last derived
);

CREATE TABLE crawl_runs (
    id             bigserial PRIMARY KEY,
    site_id        integer REFERENCES sites (id),
    started_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz,
    finish_reason  text,
    counters       jsonb NOT NULL DEFAULT '{}'::jsonb
);

-- One row per distinct content of a URL: a re-fetch with the same content hash only moves last_seen.
CREATE TABLE pages (
    id             bigserial PRIMARY KEY,
    site_id        integer NOT NULL REFERENCES sites (id),
    url            text NOT NULL,
    final_url      text NOT NULL,
    status         integer,
    content_type   text,
    encoding       text,
    content_hash   text NOT NULL,
    raw_body       bytea,               -- zlib-compressed page bytes, so extraction can be re-run
    raw_size       integer NOT NULL DEFAULT 0,
    url_kind       text NOT NULL,       -- what the URL looked like to the spider: article, listing, other
    outcome        text NOT NULL,       -- article, listing, not_html, too_large, decode_error, no_body, ...
    outcome_detail text,
    fetched_at     timestamptz NOT NULL,
    last_seen      timestamptz NOT NULL,
    fetch_count    integer NOT NULL DEFAULT 1,
    crawl_run_id   bigint REFERENCES crawl_runs (id),
    warc_file      text,                -- the WARC file an ingested page was read from (NULL: crawled)
    warc_offset    bigint,              -- the offset of its record in that file
    UNIQUE (url, content_hash)
);
CREATE INDEX pages_site_outcome_idx ON pages (site_id, outcome);
CREATE INDEX pages_final_url_idx ON pages (final_url);

CREATE TABLE articles (
    id                 bigserial PRIMARY KEY,
    site_id            integer NOT NULL REFERENCES sites (id),
    url                text NOT NULL UNIQUE,
    page_id            bigint REFERENCES pages (id),
    title              text,
    author             text,
    published_at       timestamptz,
    body               text NOT NULL,
    language           text,
    body_hash          text NOT NULL,
    encoding           text,
    extraction_method  text,
    confidence         real,
    first_seen         timestamptz NOT NULL,
    last_seen          timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL
);
CREATE INDEX articles_site_published_idx ON articles (site_id, published_at);
CREATE INDEX articles_first_seen_idx ON articles (first_seen);

-- Line-noise statistics (research base 000 section 2.2): per site, how many articles contained each
-- normalised line (LC, line_counts) and how many articles were counted (RC, site_line_stats); each counted
-- article's line hashes (line_noise_articles: re-cleaning, and no second count of an unchanged article);
-- per-site allow-list; the cleaned body of each article (articles.clean_body, NULL = not cleaned yet).

CREATE TABLE site_line_stats (
    site_id        integer PRIMARY KEY REFERENCES sites (id),
    articles_seen  bigint NOT NULL DEFAULT 0,   -- RC
    pruned_at      bigint NOT NULL DEFAULT 0,   -- articles_seen at the last pruning
    lines_pruned   bigint NOT NULL DEFAULT 0
);

-- No foreign key: one row per (site, line) is written per article; site_line_stats holds the reference.
CREATE TABLE line_counts (
    site_id    integer NOT NULL,
    line_hash  uuid NOT NULL,                   -- MD5 of the normalised line
    articles   integer NOT NULL,                -- LC
    PRIMARY KEY (site_id, line_hash)
);

-- A sample text of each line seen in at least two articles (what `newscorpus noise` shows).
CREATE TABLE line_samples (
    site_id    integer NOT NULL,
    line_hash  uuid NOT NULL,
    sample     text NOT NULL,
    PRIMARY KEY (site_id, line_hash)
);

-- No foreign key either: its check share-locks the sites row in every writer's transaction (MultiXacts).
CREATE TABLE line_noise_articles (
    url          text PRIMARY KEY,
    site_id      integer NOT NULL,
    body_hash    text NOT NULL,
    line_hashes  uuid[] NOT NULL,               -- distinct line hashes counted for this body, sorted
    counted_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX line_noise_articles_site_idx ON line_noise_articles (site_id);

-- The extractor's line kinds of each counted body (migrations/0012): a re-clean keeps code and headings.
CREATE TABLE line_noise_line_kinds (
    url        text PRIMARY KEY,
    body_hash  text NOT NULL,
    kinds      text NOT NULL                    -- one character per body line (body.split('\n'))
);

CREATE TABLE line_noise_allowlist (
    site_id    integer NOT NULL REFERENCES sites (id),
    line_hash  uuid NOT NULL,
    sample     text,
    added_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site_id, line_hash)
);

ALTER TABLE articles
    ADD COLUMN clean_body text,                     -- body without its noise lines; NULL = not cleaned yet
    ADD COLUMN noise_lines integer,                 -- lines removed from body
    ADD COLUMN noise_hashes uuid[],                 -- their distinct hashes
    ADD COLUMN cleaned_with_articles_seen bigint,   -- RC of the statistics it was cleaned with
    ADD COLUMN cleaned_at timestamptz;

-- Count one article's lines, in one round trip and one transaction. Every writer locks the site's
-- site_line_stats row before any line row, and line rows in hash order, so concurrent writers never
-- deadlock; an article already counted with the same body hash is not counted again; a changed body
-- moves its counts (old lines -1, new lines +1, RC unchanged). Returns RC before this article (the
-- paper's step 7), LC of each given hash after counting, which hashes are allow-listed, and what it did.
CREATE FUNCTION line_noise_count_article(
    p_site_id integer, p_url text, p_body_hash text, p_hashes uuid[], p_samples text[],
    p_prune_interval integer, p_prune_divisor integer, p_sample_min integer,
    OUT o_articles_seen bigint, OUT o_counts integer[], OUT o_allowed boolean[], OUT o_status text,
    OUT o_pruned integer)
LANGUAGE plpgsql AS $$
DECLARE
    v_old_body text;
    v_old_hashes uuid[];
    v_add uuid[];
    v_remove uuid[] := '{}';
BEGIN
    o_pruned := 0;
    INSERT INTO site_line_stats (site_id) VALUES (p_site_id) ON CONFLICT (site_id) DO NOTHING;
    SELECT s.articles_seen INTO o_articles_seen FROM site_line_stats s WHERE s.site_id = p_site_id FOR UPDATE;
    SELECT a.body_hash, a.line_hashes INTO v_old_body, v_old_hashes
    FROM line_noise_articles a WHERE a.url = p_url FOR UPDATE;
    IF NOT FOUND THEN
        o_status := 'new';
        v_add := p_hashes;
        INSERT INTO line_noise_articles (url, site_id, body_hash, line_hashes)
        VALUES (p_url, p_site_id, p_body_hash, p_hashes);
        UPDATE site_line_stats SET articles_seen = articles_seen + 1 WHERE site_id = p_site_id;
    ELSIF v_old_body = p_body_hash THEN
        o_status := 'unchanged';
        v_add := '{}';
    ELSE
        o_status := 'changed';
        v_add := ARRAY(SELECT h FROM unnest(p_hashes) h EXCEPT SELECT h FROM unnest(v_old_hashes) h ORDER BY 1);
        v_remove := ARRAY(SELECT h FROM unnest(v_old_hashes) h EXCEPT SELECT h FROM unnest(p_hashes) h ORDER BY 1);
        UPDATE line_noise_articles SET body_hash = p_body_hash, line_hashes = p_hashes, counted_at = now()
        WHERE url = p_url;
    END IF;
    IF cardinality(v_remove) > 0 THEN
        UPDATE line_counts c SET articles = c.articles - 1
        FROM (SELECT h FROM unnest(v_remove) h ORDER BY h) r
        WHERE c.site_id = p_site_id AND c.line_hash = r.h;
        DELETE FROM line_counts c WHERE c.site_id = p_site_id AND c.line_hash = ANY (v_remove) AND c.articles <= 0;
    END IF;
    IF cardinality(v_add) > 0 THEN
        INSERT INTO line_counts AS c (site_id, line_hash, articles)
        SELECT p_site_id, h, 1 FROM unnest(v_add) h ORDER BY h
        ON CONFLICT (site_id, line_hash) DO UPDATE SET articles = c.articles + EXCLUDED.articles;
    END IF;
    SELECT coalesce(array_agg(coalesce(c.articles, 0) ORDER BY u.n), '{}'),
           coalesce(array_agg(w.line_hash IS NOT NULL ORDER BY u.n), '{}')
    INTO o_counts, o_allowed
    FROM unnest(p_hashes) WITH ORDINALITY AS u(h, n)
    LEFT JOIN line_counts c ON c.site_id = p_site_id AND c.line_hash = u.h
    LEFT JOIN line_noise_allowlist w ON w.site_id = p_site_id AND w.line_hash = u.h;
    INSERT INTO line_samples (site_id, line_hash, sample)
    SELECT p_site_id, u.h, left(u.s, 500)
    FROM unnest(p_hashes, p_samples, o_counts) AS u(h, s, lc)
    WHERE u.lc >= p_sample_min AND u.s IS NOT NULL
    ORDER BY u.h
    ON CONFLICT (site_id, line_hash) DO NOTHING;
    IF o_status = 'new' AND p_prune_interval > 0 AND (o_articles_seen + 1) % p_prune_interval = 0 THEN
        WITH gone AS (
            DELETE FROM line_counts c
            WHERE c.site_id = p_site_id AND c.articles::bigint * p_prune_divisor <= o_articles_seen + 1
            RETURNING c.line_hash
        ), samples_gone AS (
            DELETE FROM line_samples s USING gone WHERE s.site_id = p_site_id AND s.line_hash = gone.line_hash
        )
        SELECT count(*) INTO o_pruned FROM gone;
        UPDATE site_line_stats SET pruned_at = o_articles_seen + 1, lines_pruned = lines_pruned + o_pruned
        WHERE site_id = p_site_id;
    END IF;
END
$$;

-- Near-duplicate index and links (research base 002): per-article features keyed by the article URL
-- (the articles row is written later, in a batch, by the storage stage), the inverted keyword index, simhash
-- pigeonhole block keys, and each duplicate's link to its cluster's canonical article. Nothing is deleted:
-- a duplicate keeps its articles row; corpus_articles (migrations/0004) shows canonical articles only.

CREATE TABLE near_duplicate_features (
    id               bigserial PRIMARY KEY,           -- posting order: larger = more recent
    url              text NOT NULL UNIQUE,             -- articles.url
    site_id          integer NOT NULL,
    language         text NOT NULL,
    source_hash      text NOT NULL,                    -- sha256 of the title and body fed: a re-crawl of the same text is a no-op
    body_hash        text NOT NULL,                    -- hash of the normalised body's word characters ("exact")
    simhash          bigint,                           -- unsigned 64-bit fingerprint - 2^63; NULL = too short
    token_count      integer NOT NULL,
    shingle_count    integer NOT NULL,
    sketch           bigint[] NOT NULL,                -- bottom-256 5-shingle hashes (63-bit), ascending
    keywords         text[] NOT NULL,
    title_keywords   text[] NOT NULL,
    title_numbers    text[] NOT NULL DEFAULT '{}',     -- the title's numbers, sorted (migrations/0012)
    canonical_id     bigint REFERENCES near_duplicate_features (id),  -- NULL = canonical; else the cluster's canonical
    duplicate_method text,                             -- exact, simhash, keywords
    duplicate_score  real,                             -- the deciding measure (1.0 exact, 1 - d/64, keyword overlap)
    matched_id       bigint,                           -- the article the decision compared it with
    resolved         boolean NOT NULL DEFAULT false,   -- canonical checked by the resolution pass
    checked_at       timestamptz NOT NULL DEFAULT now()
) WITH (toast_tuple_target = 8160);  -- the 2 KB sketch stays in the row: no TOAST lookup per candidate
CREATE INDEX near_duplicate_features_body_hash_idx ON near_duplicate_features (body_hash);
CREATE INDEX near_duplicate_features_canonical_idx ON near_duplicate_features (canonical_id)
    WHERE canonical_id IS NOT NULL;
CREATE INDEX near_duplicate_features_unresolved_idx ON near_duplicate_features (id)
    WHERE canonical_id IS NULL AND NOT resolved;

-- Inverted keyword index, one row per (keyword, article): a btree read backwards gives a keyword's most
-- recent postings first (the alternative, a GIN index on keywords, was slower: benchmarks/near_duplicate_throughput.py).
CREATE TABLE near_duplicate_keywords (
    keyword     text NOT NULL,
    article_id  bigint NOT NULL,
    PRIMARY KEY (keyword, article_id)
);

-- Simhash pigeonhole keys (newscorpus.core.near_duplicate.simhash.block_keys): for Hamming distances up to 4, one key per
-- pair of the d + 2 blocks, 2^56 | pair number << 48 | the two blocks' bits (migrations/0008); above, one key per
-- block, (block index << 32) | block value.
CREATE TABLE near_duplicate_blocks (
    block_key   bigint NOT NULL,
    article_id  bigint NOT NULL,
    PRIMARY KEY (block_key, article_id)
);

-- Each duplicate with its canonical article, how it was found and the score.
CREATE VIEW article_duplicates AS
SELECT d.url, c.url AS canonical_url, d.duplicate_method, d.duplicate_score, m.url AS matched_url, d.checked_at
FROM near_duplicate_features d
JOIN near_duplicate_features c ON c.id = d.canonical_id
LEFT JOIN near_duplicate_features m ON m.id = d.matched_id;

-- Near-duplicate lookups for a batch of articles in one call (benchmarks/near_duplicate_throughput.py). The stage
-- decides the articles that queued up while the previous batch ran in one transaction
-- (newscorpus.store.near_duplicate.index.record_articles), so the per-statement and per-round-trip costs are paid
-- once per batch.
--
-- Lock the batch's keys (transaction-scoped advisory locks, in the sorted array's order), then, for each
-- article (its 1-based position in p_urls), find the candidates (each statement of a plpgsql function takes a
-- new snapshot: the reads see what writers holding the same keys committed while we waited). Rows: the stored
-- row of an article's URL, if any ('self'), then each (article, candidate) with how it was found and the
-- candidate's features. Keyword candidates: each keyword's p_per_keyword most recent postings (p_layout 'table':
-- the posting table; 'gin': a GIN index on keywords, benchmarks only) sharing >= p_min_shared[article], the
-- p_limit sharing most per article (migrations/0007), counted and ranked article by article (migrations/0009),
-- then only those whose keyword overlap (p_overlap: 'min' or 'jaccard') reaches p_tau: the others cannot be
-- duplicates and their 2 KB sketches are not read (the shared keywords counted again from the whole arrays only
-- when the lookup's own count does not reach p_tau, migrations/0013).
-- plan_cache_mode: every call has new parameter values, and under the default (auto) Postgres planned the
-- statements again on each call, which cost more than running them (benchmarks/near_duplicate_throughput.py);
-- the plans do not depend on the values. jit off (migrations/0008): the generic plan's estimated cost grows with
-- the tables and passed jit_above_cost past ~100k indexed articles, and compiling it cost more than the call.
CREATE FUNCTION near_duplicate_candidates_batch(
    p_lock_keys bigint[], p_urls text[], p_body_hashes text[], p_simhashes bigint[], p_min_shared integer[],
    p_block_articles integer[], p_block_keys bigint[], p_keyword_articles integer[], p_keywords text[],
    p_max_distance integer, p_per_keyword integer, p_limit integer, p_layout text, p_overlap text,
    p_tau double precision
) RETURNS TABLE (
    role text, article integer, id bigint, url text, exact boolean, near boolean, shared integer,
    source_hash text, canonical_id bigint, canonical_url text, duplicate_method text, duplicate_score real,
    has_members boolean, language text, keywords text[], title_keywords text[], simhash bigint, sketch bigint[],
    shingle_count integer, token_count integer, body_hash text, site_id integer, title_numbers text[]
) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET jit = off AS $$
#variable_conflict use_column
BEGIN
    PERFORM pg_advisory_xact_lock(k) FROM unnest(p_lock_keys) AS k;
    RETURN QUERY
    WITH batch AS (
        SELECT a.n::integer AS article, a.body_hash, a.simhash, a.min_shared, f.id AS self_id
        FROM unnest(p_urls, p_body_hashes, p_simhashes, p_min_shared) WITH ORDINALITY
             AS a (url, body_hash, simhash, min_shared, n)
        LEFT JOIN near_duplicate_features f ON f.url = a.url
    ), article_keywords AS (
        SELECT k.article, array_agg(k.keyword) AS keywords
        FROM unnest(p_keyword_articles, p_keywords) AS k (article, keyword)
        GROUP BY k.article
    ), found AS (
        SELECT b.article, f.id, true AS exact, false AS near, 0 AS shared
        FROM batch b JOIN near_duplicate_features f ON f.body_hash = b.body_hash
        WHERE b.body_hash IS NOT NULL
        UNION ALL
        SELECT bb.article, bl.article_id, false, true, 0
        FROM unnest(p_block_articles, p_block_keys) AS bb (article, block_key)
        JOIN batch b ON b.article = bb.article
        JOIN near_duplicate_blocks bl ON bl.block_key = bb.block_key
        JOIN near_duplicate_features f ON f.id = bl.article_id
        WHERE bit_count((f.simhash # b.simhash)::bit(64)) <= p_max_distance
        UNION ALL
        SELECT b.article, s.id, false, false, s.n
        FROM batch b
        JOIN article_keywords ak ON ak.article = b.article
        CROSS JOIN LATERAL (  -- per article: its keywords' postings counted in one small hash, the top p_limit
            SELECT p.id, count(*)::integer AS n
            FROM unnest(ak.keywords) AS kw (keyword)
            CROSS JOIN LATERAL (  -- an index probe per keyword: a plan that needs no row estimates
                (SELECT w.article_id AS id FROM near_duplicate_keywords w
                 WHERE p_layout = 'table' AND w.keyword = kw.keyword AND w.article_id IS DISTINCT FROM b.self_id
                 ORDER BY w.article_id DESC LIMIT p_per_keyword)
                UNION ALL
                (SELECT f.id FROM near_duplicate_features f
                 WHERE p_layout = 'gin' AND f.keywords @> ARRAY[kw.keyword] AND f.id IS DISTINCT FROM b.self_id
                 ORDER BY f.id DESC LIMIT p_per_keyword)) p
            GROUP BY p.id
            HAVING count(*) >= b.min_shared
            ORDER BY count(*) DESC, p.id DESC
            LIMIT p_limit) s
    ), candidate AS (
        SELECT found.article, found.id, bool_or(found.exact) AS exact, bool_or(found.near) AS near,
               max(found.shared) AS shared
        FROM found JOIN batch b ON b.article = found.article
        WHERE found.id IS DISTINCT FROM b.self_id
        GROUP BY found.article, found.id
    )
    SELECT 'self', b.article, f.id, f.url, false, false, 0, f.source_hash, f.canonical_id,
           (SELECT c.url FROM near_duplicate_features c WHERE c.id = f.canonical_id),
           f.duplicate_method, f.duplicate_score,
           EXISTS (SELECT 1 FROM near_duplicate_features m WHERE m.canonical_id = f.id),
           f.language, f.keywords, NULL::text[], f.simhash, NULL::bigint[], 0, 0, NULL::text, f.site_id, NULL::text[]
    FROM batch b JOIN near_duplicate_features f ON f.id = b.self_id
    UNION ALL
    SELECT 'candidate', c.article, f.id, f.url, c.exact, c.near, c.shared, NULL, f.canonical_id, NULL, NULL, NULL,
           NULL, f.language, f.keywords, f.title_keywords, f.simhash, f.sketch, f.shingle_count, f.token_count,
           f.body_hash, f.site_id, f.title_numbers
    FROM candidate c JOIN near_duplicate_features f ON f.id = c.id
    LEFT JOIN article_keywords ak ON ak.article = c.article
    WHERE c.exact OR c.near
       OR c.shared::double precision / greatest(1, CASE WHEN p_overlap = 'min'
              THEN least(cardinality(f.keywords), cardinality(ak.keywords))
              ELSE cardinality(f.keywords) + cardinality(ak.keywords) - c.shared::double precision END)
          >= p_tau - 1e-9
       OR (SELECT s.n / greatest(1, CASE WHEN p_overlap = 'min'
              THEN least(cardinality(f.keywords), cardinality(ak.keywords))
              ELSE cardinality(f.keywords) + cardinality(ak.keywords) - s.n END)
           FROM (SELECT count(*)::double precision AS n FROM unnest(f.keywords) AS k
                 WHERE k = ANY (ak.keywords)) s) >= p_tau - 1e-9;
END
$$;

-- Scheduled corpus builds: one row per `newscorpus build`, its phase (for resuming after a crash)
-- and its report; the corpus as published (one view every reader goes through); the full-text search index.

CREATE TABLE builds (
    id             bigserial PRIMARY KEY,
    build_key      text NOT NULL UNIQUE,             -- the snapshot folder name: 20261122T101500Z-17
    started_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz,
    status         text NOT NULL DEFAULT 'running',  -- running, succeeded, completed_with_errors, failed, abandoned
    phase          text NOT NULL DEFAULT 'crawl',    -- crawl, maintenance, snapshot, done: where a resume starts
    sites          text[] NOT NULL,
    site_configs   jsonb NOT NULL DEFAULT '{}'::jsonb, -- site name -> config file (resume crawls the same sites)
    since          date,                             -- the snapshot holds articles first seen/published since
    out_dir        text NOT NULL,
    pid            integer,                          -- of the process running (or last running) the build
    hostname       text,
    attempts       integer NOT NULL DEFAULT 1,       -- 1 + number of resumes
    crawl_run_ids  bigint[] NOT NULL DEFAULT '{}',   -- crawl_runs of this build (their counters feed the report)
    report         jsonb NOT NULL DEFAULT '{}'::jsonb,
    error          text
);
CREATE INDEX builds_status_idx ON builds (status, started_at);

-- The corpus as published: what snapshots, search and stats read. Body = the line-noise-cleaned body when
-- there is one. Near-duplicate resolution will narrow this view to canonical articles (one place to change).
-- revised_at: when the published text last changed (extraction update or re-clean), for incremental indexing.
CREATE VIEW corpus_articles AS
SELECT a.id, a.site_id, s.name AS site, a.url, a.title, a.author, a.published_at, a.language,
       coalesce(a.clean_body, a.body) AS body, a.extraction_method, a.first_seen, a.last_seen, a.updated_at,
       greatest(a.updated_at, a.cleaned_at) AS revised_at
FROM articles a
JOIN sites s ON s.id = a.site_id
WHERE NOT EXISTS (SELECT 1 FROM near_duplicate_features d WHERE d.url = a.url AND d.canonical_id IS NOT NULL)
  AND coalesce(a.clean_body, a.body) <> '';

-- Full-text search: title and body segmented (jieba for Chinese, lower-cased words otherwise) into a
-- `simple`-configuration tsvector; filled incrementally by newscorpus.builds.search_index.index_search.
CREATE TABLE article_search (
    article_id  bigint PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE,
    vector      tsvector NOT NULL,
    indexed_at  timestamptz NOT NULL              -- the article's revised_at when it was indexed
);
CREATE INDEX article_search_vector_idx ON article_search USING gin (vector);

-- Site-aware extraction: per-site templates (research base 001: per field an XPath queue and search
-- rules, repaired in place) with hit and repair counts, and a few reference skeletons per structure cluster
-- (research base 003: the siblings DeleteSame compares a page with). Sites are hosts without "www.".

CREATE TABLE site_templates (
    id          bigserial PRIMARY KEY,
    site        text NOT NULL,                    -- newscorpus.core.site_aware.url_similarity.site_of
    page_type   text NOT NULL DEFAULT 'article',
    url         text NOT NULL,                    -- example page: pages match by URL similarity
    template    jsonb NOT NULL,                   -- SiteTemplate.to_dict(): fields, XPath queues, rules
    source      text NOT NULL DEFAULT 'induced',  -- induced, config
    hits        bigint NOT NULL DEFAULT 0,        -- pages extracted by the template
    repairs     bigint NOT NULL DEFAULT 0,        -- XPaths appended by search-rule repair
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (site, page_type, url)
);

-- A skeleton is a page's element tree as two 48-bit hashes per node (~40 KB of JSON for 2,000 elements).
CREATE TABLE site_skeletons (
    site        text NOT NULL,
    cluster     integer NOT NULL,                 -- 0.. per site
    position    integer NOT NULL,                 -- 0.. references kept per cluster
    skeleton    jsonb NOT NULL,                   -- Skeleton.to_json()
    nodes       integer NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, cluster, position)
);

-- Article metadata (migrations/0011): see that file for the columns' meaning.
ALTER TABLE articles
    ADD COLUMN published_date        date,
    ADD COLUMN published_utc_offset  interval,
    ADD COLUMN modified_at           timestamptz,   -- when the page states a modification
    ADD COLUMN authors               text[],        -- in byline order; author holds them joined by ", "
    ADD COLUMN site_name             text;          -- og:site_name or kin; never part of the title
CREATE INDEX articles_site_published_date_idx ON articles (site_id, published_date);

-- corpus_articles (migrations/0004, 0012) with the new columns at its end.
CREATE OR REPLACE VIEW corpus_articles AS
SELECT a.id, a.site_id, s.name AS site, a.url, a.title, a.author, a.published_at, a.language,
       coalesce(a.clean_body, a.body) AS body, a.extraction_method, a.first_seen, a.last_seen, a.updated_at,
       greatest(a.updated_at, a.cleaned_at) AS revised_at,
       a.published_date, a.published_utc_offset, a.modified_at, a.authors, a.site_name
FROM articles a
JOIN sites s ON s.id = a.site_id
WHERE NOT EXISTS (SELECT 1 FROM near_duplicate_features d WHERE d.url = a.url AND d.canonical_id IS NOT NULL)
  AND coalesce(a.clean_body, a.body) <> '';

-- What produced each article (migrations/0014, newscorpus.store.derivation); NULL: the crawl's provisional
-- extraction, not derived yet.
ALTER TABLE articles
    ADD COLUMN extractor_version text,
    ADD COLUMN site_model_version text,
    ADD COLUMN line_stats_version text;

-- Search queue (migrations/0015): search index maintenance without a corpus scan: triggers queue every article whose published text or place in
-- the published corpus may have changed (written, re-cleaned, marked or unmarked as a near-duplicate), and
-- newscorpus.builds.search_index reads the queue, so a search with nothing new reads one empty index page.
-- change: bumped by every new queueing, so an index pass dequeues only what it read (a write during the pass
-- stays queued for the next one).
CREATE TABLE article_search_queue (
    article_id  bigint PRIMARY KEY,
    change      bigserial NOT NULL
);

CREATE FUNCTION queue_article_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO article_search_queue (article_id) VALUES (NEW.id)
    ON CONFLICT (article_id) DO UPDATE SET change = EXCLUDED.change;
    RETURN NULL;
END
$$;

-- A near-duplicate mark (canonical_id set) takes the article of that URL out of corpus_articles; clearing it
-- puts the article back.
CREATE FUNCTION queue_article_search_of_url() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO article_search_queue (article_id)
    SELECT a.id FROM articles a
    WHERE a.url = CASE WHEN TG_OP = 'DELETE' THEN OLD.url ELSE NEW.url END
       OR (TG_OP = 'UPDATE' AND a.url = OLD.url)
    ON CONFLICT (article_id) DO UPDATE SET change = EXCLUDED.change;
    RETURN NULL;
END
$$;

CREATE TRIGGER articles_search_insert AFTER INSERT ON articles
    FOR EACH ROW EXECUTE FUNCTION queue_article_search();
CREATE TRIGGER articles_search_update AFTER UPDATE OF url, title, body, clean_body ON articles
    FOR EACH ROW WHEN (OLD.url IS DISTINCT FROM NEW.url OR OLD.title IS DISTINCT FROM NEW.title
                       OR OLD.body IS DISTINCT FROM NEW.body OR OLD.clean_body IS DISTINCT FROM NEW.clean_body)
    EXECUTE FUNCTION queue_article_search();
CREATE TRIGGER near_duplicate_search_insert AFTER INSERT ON near_duplicate_features
    FOR EACH ROW WHEN (NEW.canonical_id IS NOT NULL) EXECUTE FUNCTION queue_article_search_of_url();
CREATE TRIGGER near_duplicate_search_update AFTER UPDATE OF url, canonical_id ON near_duplicate_features
    FOR EACH ROW WHEN ((OLD.canonical_id IS NULL) <> (NEW.canonical_id IS NULL) OR OLD.url IS DISTINCT FROM NEW.url)
    EXECUTE FUNCTION queue_article_search_of_url();
CREATE TRIGGER near_duplicate_search_delete AFTER DELETE ON near_duplicate_features
    FOR EACH ROW WHEN (OLD.canonical_id IS NOT NULL) EXECUTE FUNCTION queue_article_search_of_url();

-- Corpus counts kept on write (migrations/0018_corpus_counts.sql).
--
-- 1. Each article's non-empty body lines (the noise rate's denominator), counted when its body is written.
ALTER TABLE articles ADD COLUMN body_lines integer NOT NULL DEFAULT 0;  -- lines of body with a non-blank character

CREATE FUNCTION count_body_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.body_lines := (SELECT count(*) FROM regexp_split_to_table(NEW.body, E'\n') line WHERE btrim(line) <> '');
    RETURN NEW;
END
$$;


CREATE TRIGGER articles_body_lines_insert BEFORE INSERT ON articles
    FOR EACH ROW EXECUTE FUNCTION count_body_lines();
CREATE TRIGGER articles_body_lines_update BEFORE UPDATE OF body ON articles
    FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body) EXECUTE FUNCTION count_body_lines();

-- 2. What one article adds to the counts. `linked`: a near-duplicate mark on its URL (near_duplicate_features.
--    canonical_id set), which both takes it out of corpus_articles and counts it as a near duplicate. The day is
--    coalesce(published_at, first_seen) in 15-minute bins: a bin lies within one local day in every time zone whose
--    offset is a multiple of 15 minutes, so `stats` gives the days of the session's time zone, as corpus_articles does.
CREATE TYPE corpus_count AS (
    site_id      integer,
    day_bin      timestamptz,
    body_hash    text,
    published    boolean,   -- in corpus_articles: not linked, body (cleaned if cleaned) not empty
    linked       boolean,
    cleaned      boolean,   -- clean_body IS NOT NULL
    noise_lines  bigint,    -- 0 unless cleaned
    body_lines   bigint     -- 0 unless cleaned
);

CREATE FUNCTION corpus_count_of(a articles, linked boolean) RETURNS corpus_count LANGUAGE sql IMMUTABLE AS $$
    SELECT ROW(a.site_id,
               date_bin('15 minutes', coalesce(a.published_at, a.first_seen), timestamptz '2000-01-01 00:00+00'),
               a.body_hash, NOT linked AND coalesce(a.clean_body, a.body) <> '', linked, a.clean_body IS NOT NULL,
               CASE WHEN a.clean_body IS NOT NULL THEN coalesce(a.noise_lines, 0) ELSE 0 END,
               CASE WHEN a.clean_body IS NOT NULL THEN a.body_lines ELSE 0 END)::corpus_count
$$;

-- 3. Writers append what changed (-1 the article's old count, +1 its new one) and never update a shared row, so
--    concurrent crawls do not wait on each other; `stats` folds the changes into the totals below.
CREATE TABLE corpus_count_changes (
    sign         smallint NOT NULL,
    site_id      integer NOT NULL,
    day_bin      timestamptz NOT NULL,
    body_hash    text NOT NULL,
    published    boolean NOT NULL,
    linked       boolean NOT NULL,
    cleaned      boolean NOT NULL,
    noise_lines  bigint NOT NULL,
    body_lines   bigint NOT NULL
);

CREATE TABLE site_day_counts (   -- published articles per site and 15-minute bin
    site_id   integer NOT NULL,
    day_bin   timestamptz NOT NULL,
    articles  bigint NOT NULL,
    PRIMARY KEY (site_id, day_bin)
);

CREATE TABLE site_body_counts (  -- stored articles per site and body hash: a site's distinct bodies are its hashes > 0
    site_id    integer NOT NULL,
    body_hash  text NOT NULL,
    articles   bigint NOT NULL,
    PRIMARY KEY (site_id, body_hash)
);

CREATE TABLE site_counts (       -- per site, over every stored article
    site_id           integer PRIMARY KEY,
    articles          bigint NOT NULL,
    distinct_bodies   bigint NOT NULL,
    near_duplicates   bigint NOT NULL,
    cleaned_articles  bigint NOT NULL,
    noise_lines       bigint NOT NULL,   -- of the cleaned articles
    body_lines        bigint NOT NULL    -- of the cleaned articles
);

CREATE FUNCTION count_article_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    before corpus_count;
    after corpus_count;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        before := corpus_count_of(OLD, EXISTS (SELECT 1 FROM near_duplicate_features f
                                               WHERE f.url = OLD.url AND f.canonical_id IS NOT NULL));
    END IF;
    IF TG_OP <> 'DELETE' THEN
        after := corpus_count_of(NEW, EXISTS (SELECT 1 FROM near_duplicate_features f
                                              WHERE f.url = NEW.url AND f.canonical_id IS NOT NULL));
    END IF;
    IF before IS DISTINCT FROM after THEN  -- a re-crawl that only moves last_seen changes no count
        INSERT INTO corpus_count_changes
        SELECT -1, (before).* WHERE TG_OP <> 'INSERT'
        UNION ALL
        SELECT 1, (after).* WHERE TG_OP <> 'DELETE';
    END IF;
    RETURN NULL;
END
$$;

-- A near-duplicate mark set or cleared on a URL changes the counts of that URL's article, if it is stored.
CREATE FUNCTION count_link_change(p_url text, p_before boolean, p_after boolean) RETURNS void LANGUAGE sql AS $$
    INSERT INTO corpus_count_changes
    SELECT c.sign, (c.count).*
    FROM articles a
    CROSS JOIN LATERAL (VALUES (-1, corpus_count_of(a, p_before)), (1, corpus_count_of(a, p_after))) c (sign, count)
    WHERE a.url = p_url AND p_before <> p_after
$$;

CREATE FUNCTION count_near_duplicate_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.url = NEW.url THEN
        PERFORM count_link_change(NEW.url, OLD.canonical_id IS NOT NULL, NEW.canonical_id IS NOT NULL);
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM count_link_change(OLD.url, OLD.canonical_id IS NOT NULL, false);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM count_link_change(NEW.url, false, NEW.canonical_id IS NOT NULL);
    END IF;
    RETURN NULL;
END
$$;

-- 4. The fold: the changes taken off, added to the totals. One fold at a time (a transaction-scoped lock), so a
--    body hash's count and the site's distinct bodies move together.
CREATE FUNCTION corpus_counts_fold() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    folded bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('newscorpus/corpus_counts/' || current_schema(), 0));
    WITH taken AS (
        DELETE FROM corpus_count_changes RETURNING *
    ), days AS (
        INSERT INTO site_day_counts AS t (site_id, day_bin, articles)
        SELECT site_id, day_bin, sum(sign) FROM taken WHERE published GROUP BY 1, 2 HAVING sum(sign) <> 0
        ON CONFLICT (site_id, day_bin) DO UPDATE SET articles = t.articles + EXCLUDED.articles
    ), bodies AS (
        SELECT site_id, body_hash, sum(sign) AS n FROM taken GROUP BY 1, 2 HAVING sum(sign) <> 0
    ), bodies_after AS (
        INSERT INTO site_body_counts AS t (site_id, body_hash, articles)
        SELECT site_id, body_hash, n FROM bodies
        ON CONFLICT (site_id, body_hash) DO UPDATE SET articles = t.articles + EXCLUDED.articles
        RETURNING t.site_id, t.body_hash, t.articles
    ), distinct_change AS (  -- hashes whose count went from 0 to more (+1) or back to 0 (-1)
        SELECT a.site_id, sum((a.articles > 0)::int - (a.articles - b.n > 0)::int) AS n
        FROM bodies_after a JOIN bodies b USING (site_id, body_hash)
        GROUP BY 1
    ), sites AS (
        SELECT site_id, sum(sign) AS articles,
               coalesce(sum(sign) FILTER (WHERE linked), 0) AS near_duplicates,
               coalesce(sum(sign) FILTER (WHERE cleaned), 0) AS cleaned_articles,
               sum(sign * noise_lines) AS noise_lines, sum(sign * body_lines) AS body_lines,
               count(*) AS changes
        FROM taken GROUP BY 1
    ), totals AS (
        INSERT INTO site_counts AS t (site_id, articles, distinct_bodies, near_duplicates, cleaned_articles,
                                      noise_lines, body_lines)
        SELECT s.site_id, s.articles, coalesce(d.n, 0), s.near_duplicates, s.cleaned_articles, s.noise_lines,
               s.body_lines
        FROM sites s LEFT JOIN distinct_change d USING (site_id)
        ON CONFLICT (site_id) DO UPDATE SET
            articles = t.articles + EXCLUDED.articles,
            distinct_bodies = t.distinct_bodies + EXCLUDED.distinct_bodies,
            near_duplicates = t.near_duplicates + EXCLUDED.near_duplicates,
            cleaned_articles = t.cleaned_articles + EXCLUDED.cleaned_articles,
            noise_lines = t.noise_lines + EXCLUDED.noise_lines,
            body_lines = t.body_lines + EXCLUDED.body_lines
    )
    SELECT coalesce(sum(changes), 0) INTO folded FROM sites;
    RETURN folded;
END
$$;

-- 5. The counts made again from the articles: the backfill, and after a TRUNCATE (which fires no row trigger).
CREATE FUNCTION corpus_counts_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('newscorpus/corpus_counts/' || current_schema(), 0));
    DELETE FROM corpus_count_changes;
    DELETE FROM site_day_counts;
    DELETE FROM site_body_counts;
    DELETE FROM site_counts;
    INSERT INTO corpus_count_changes
    SELECT 1, (corpus_count_of(a, f.url IS NOT NULL)).*
    FROM articles a
    LEFT JOIN near_duplicate_features f ON f.url = a.url AND f.canonical_id IS NOT NULL;
    PERFORM corpus_counts_fold();
END
$$;

CREATE FUNCTION recount_corpus_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM corpus_counts_recount();
    RETURN NULL;
END
$$;


CREATE TRIGGER articles_counts AFTER INSERT OR DELETE ON articles
    FOR EACH ROW EXECUTE FUNCTION count_article_change();
CREATE TRIGGER articles_counts_update AFTER UPDATE ON articles
    FOR EACH ROW WHEN ((OLD.site_id, OLD.url, OLD.published_at, OLD.first_seen, OLD.body_hash, OLD.body,
                        OLD.clean_body, OLD.noise_lines, OLD.body_lines)
                       IS DISTINCT FROM (NEW.site_id, NEW.url, NEW.published_at, NEW.first_seen, NEW.body_hash,
                                         NEW.body, NEW.clean_body, NEW.noise_lines, NEW.body_lines))
    EXECUTE FUNCTION count_article_change();
CREATE TRIGGER near_duplicate_counts_insert AFTER INSERT ON near_duplicate_features
    FOR EACH ROW WHEN (NEW.canonical_id IS NOT NULL) EXECUTE FUNCTION count_near_duplicate_change();
CREATE TRIGGER near_duplicate_counts_update AFTER UPDATE OF url, canonical_id ON near_duplicate_features
    FOR EACH ROW WHEN ((OLD.canonical_id IS NULL) <> (NEW.canonical_id IS NULL)
                       OR (OLD.url IS DISTINCT FROM NEW.url AND NEW.canonical_id IS NOT NULL))
    EXECUTE FUNCTION count_near_duplicate_change();
CREATE TRIGGER near_duplicate_counts_delete AFTER DELETE ON near_duplicate_features
    FOR EACH ROW WHEN (OLD.canonical_id IS NOT NULL) EXECUTE FUNCTION count_near_duplicate_change();
CREATE TRIGGER articles_counts_truncate AFTER TRUNCATE ON articles
    FOR EACH STATEMENT EXECUTE FUNCTION recount_corpus_counts();
CREATE TRIGGER near_duplicate_counts_truncate AFTER TRUNCATE ON near_duplicate_features
    FOR EACH STATEMENT EXECUTE FUNCTION recount_corpus_counts();
