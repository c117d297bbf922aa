-- Batch lookup (issue 18): a keyword candidate's shared keywords are counted again from its whole keyword array
-- (unnest and = ANY: ~40 x ~16 text comparisons a candidate row) only when the postings counted in the lookup do
-- not already reach tau: those are a lower bound of the shared keywords (each keyword's latest p_per_keyword
-- postings only), and both overlap measures grow with the count, so a row they pass passes the full count too.
-- Same signature, rows and order as migrations/0012 (the benchmark's 2,239 rows of the dev set's 716 articles at
-- 100k indexed articles are the same). The lookup's server CPU per article 0.37-0.43 -> 0.35-0.38 ms (runs
-- alternated, each batch's lookup 5 times; 2026-11-24, BENCHMARKS.md "Issue 18, round 3").
CREATE OR REPLACE FUNCTION near_duplicate_candidates_batch(
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
