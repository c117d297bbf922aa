-- Near-duplicate index and links (issue 6; research base 002): per-article features keyed by the article URL
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
-- recent postings first (the alternative, a GIN index on keywords, was slower: docs/dedup_results.md).
CREATE TABLE near_duplicate_keywords (
    keyword     text NOT NULL,
    article_id  bigint NOT NULL,
    PRIMARY KEY (keyword, article_id)
);

-- Simhash pigeonhole keys (pipelines.core.simhash_fingerprint.block_keys): (block index << 32) | block value.
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

-- One round trip for the stage's lookup: lock the story's keys (transaction-scoped advisory locks, in the
-- sorted array's order), then find the candidates (each statement of a plpgsql function takes a new snapshot:
-- the reads see what writers holding the same keys committed while we waited). Rows: the stored row of
-- p_url, if any ('self'), then each candidate with how it was found and its features. Keyword candidates:
-- each keyword's p_per_keyword most recent postings (p_layout 'table': the posting table; 'gin': a GIN index
-- on keywords, benchmarks only), the p_limit sharing most, then only those sharing >= p_min_shared and
-- whose keyword overlap (p_overlap: 'min' or 'jaccard') reaches p_tau.
CREATE FUNCTION near_duplicate_candidates(
    p_lock_keys bigint[], p_url text, p_body_hash text, p_simhash bigint, p_max_distance integer,
    p_block_keys bigint[], p_keywords text[], p_per_keyword integer, p_limit integer, p_min_shared integer,
    p_layout text, p_overlap text, p_tau double precision
) RETURNS TABLE (
    role text, id bigint, url text, exact boolean, near boolean, shared integer, source_hash text,
    canonical_id bigint, canonical_url text, duplicate_method text, duplicate_score real, has_members boolean,
    language text, keywords text[], title_keywords text[], simhash bigint, sketch bigint[], shingle_count integer,
    token_count integer, body_hash text
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_self bigint;
    v_ids bigint[];
    v_shared integer[];
BEGIN
    PERFORM pg_advisory_xact_lock(k) FROM unnest(p_lock_keys) AS k;
    SELECT f.id INTO v_self FROM near_duplicate_features f WHERE f.url = p_url;
    IF p_layout = 'gin' THEN
        SELECT array_agg(c.id), array_agg(c.n) INTO v_ids, v_shared FROM (
            SELECT p.id, count(*)::integer AS n
            FROM unnest(p_keywords) AS k (keyword)
            CROSS JOIN LATERAL (
                SELECT f.id FROM near_duplicate_features f
                WHERE f.keywords @> ARRAY[k.keyword] AND f.id IS DISTINCT FROM v_self
                ORDER BY f.id DESC LIMIT p_per_keyword) p
            GROUP BY p.id ORDER BY 2 DESC, 1 DESC LIMIT p_limit) c
        WHERE c.n >= p_min_shared;
    ELSE
        SELECT array_agg(c.id), array_agg(c.n) INTO v_ids, v_shared FROM (
            SELECT p.article_id AS id, count(*)::integer AS n
            FROM unnest(p_keywords) AS k (keyword)
            CROSS JOIN LATERAL (
                SELECT w.article_id FROM near_duplicate_keywords w
                WHERE w.keyword = k.keyword AND w.article_id IS DISTINCT FROM v_self
                ORDER BY w.article_id DESC LIMIT p_per_keyword) p
            GROUP BY p.article_id ORDER BY 2 DESC, 1 DESC LIMIT p_limit) c
        WHERE c.n >= p_min_shared;
    END IF;
    RETURN QUERY
    WITH found AS (
        SELECT f.id, true AS exact, false AS near, 0 AS shared FROM near_duplicate_features f
        WHERE p_body_hash IS NOT NULL AND f.body_hash = p_body_hash
        UNION ALL
        SELECT b.article_id, false, true, 0 FROM near_duplicate_blocks b
        JOIN near_duplicate_features f ON f.id = b.article_id
        WHERE p_simhash IS NOT NULL AND b.block_key = ANY (p_block_keys)
          AND bit_count((f.simhash # p_simhash)::bit(64)) <= p_max_distance
        UNION ALL
        SELECT c.id, false, false, c.n FROM unnest(v_ids, v_shared) AS c (id, n)
    ), candidates AS (
        SELECT found.id, bool_or(found.exact) AS exact, bool_or(found.near) AS near, max(found.shared) AS shared
        FROM found WHERE found.id IS DISTINCT FROM v_self GROUP BY found.id
    )
    SELECT 'self', f.id, f.url, false, false, 0, f.source_hash, f.canonical_id,
           (SELECT c.url FROM near_duplicate_features c WHERE c.id = f.canonical_id),
           f.duplicate_method, f.duplicate_score,
           EXISTS (SELECT 1 FROM near_duplicate_features m WHERE m.canonical_id = f.id),
           f.language, f.keywords, NULL::text[], f.simhash, NULL::bigint[], 0, 0, NULL::text
    FROM near_duplicate_features f WHERE f.id = v_self
    UNION ALL
    SELECT 'candidate', f.id, f.url, c.exact, c.near, c.shared, NULL, f.canonical_id, NULL, NULL, NULL, NULL,
           f.language, f.keywords, f.title_keywords, f.simhash, f.sketch, f.shingle_count, f.token_count,
           f.body_hash
    FROM candidates c JOIN near_duplicate_features f ON f.id = c.id
    CROSS JOIN LATERAL (SELECT count(*)::double precision AS n FROM unnest(f.keywords) AS k
                        WHERE k = ANY (p_keywords)) s
    -- A candidate found by keywords only is a duplicate only if its keyword overlap reaches tau: the others
    -- are not read (their 2 KB sketches are most of a lookup's cost).
    WHERE c.exact OR c.near OR s.n / greatest(1, CASE WHEN p_overlap = 'min'
        THEN least(cardinality(f.keywords), cardinality(p_keywords))
        ELSE cardinality(f.keywords) + cardinality(p_keywords) - s.n END) >= p_tau - 1e-9;
END
$$;
