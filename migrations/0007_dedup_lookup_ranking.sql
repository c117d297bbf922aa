-- Batch lookup, cheaper ranking (issue 6 speed, round 3; docs/dedup_results.md): the keyword candidates sharing
-- fewer than p_min_shared[article] keywords are dropped before the per-article ranking instead of after it. The
-- candidates sharing enough keywords are a prefix of the ranking (most shared first), so the p_limit kept are the
-- same; the ranking sorts ~1,900 rows per batch of 64 instead of ~29,000 (server CPU per article at 100k
-- indexed, batches of 64: 0.75 -> 0.64 ms, 2026-11-22, docs/dedup_results.md). Same signature and rows as
-- migrations/0006.
CREATE OR REPLACE FUNCTION near_duplicate_candidates_batch(
    p_lock_keys bigint[], p_urls text[], p_body_hashes text[], p_simhashes bigint[], p_min_shared integer[],
    p_block_articles integer[], p_block_keys bigint[], p_keyword_articles integer[], p_keywords text[],
    p_max_distance integer, p_per_keyword integer, p_limit integer, p_layout text, p_overlap text,
    p_tau double precision
) RETURNS TABLE (
    role text, article integer, id bigint, url text, exact boolean, near boolean, shared integer,
    source_hash text, canonical_id bigint, canonical_url text, duplicate_method text, duplicate_score real,
    has_members boolean, language text, keywords text[], title_keywords text[], simhash bigint, sketch bigint[],
    shingle_count integer, token_count integer, body_hash text
) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
    PERFORM pg_advisory_xact_lock(k) FROM unnest(p_lock_keys) AS k;
    RETURN QUERY
    WITH batch AS (
        SELECT a.n::integer AS article, a.body_hash, a.simhash, a.min_shared, f.id AS self_id
        FROM unnest(p_urls, p_body_hashes, p_simhashes, p_min_shared) WITH ORDINALITY
             AS a (url, body_hash, simhash, min_shared, n)
        LEFT JOIN near_duplicate_features f ON f.url = a.url
    ), batch_keyword AS (
        SELECT k.article, k.keyword FROM unnest(p_keyword_articles, p_keywords) AS k (article, keyword)
    ), shared_count AS (  -- a lateral index probe per (article, keyword): a plan that needs no row estimates
        SELECT bk.article, p.id, count(*)::integer AS n
        FROM batch_keyword bk
        JOIN batch b ON b.article = bk.article
        CROSS JOIN LATERAL (
            (SELECT w.article_id AS id FROM near_duplicate_keywords w
             WHERE p_layout = 'table' AND w.keyword = bk.keyword AND w.article_id IS DISTINCT FROM b.self_id
             ORDER BY w.article_id DESC LIMIT p_per_keyword)
            UNION ALL
            (SELECT f.id FROM near_duplicate_features f
             WHERE p_layout = 'gin' AND f.keywords @> ARRAY[bk.keyword] AND f.id IS DISTINCT FROM b.self_id
             ORDER BY f.id DESC LIMIT p_per_keyword)) p
        GROUP BY bk.article, b.min_shared, p.id
        HAVING count(*) >= b.min_shared  -- before the ranking: the same top p_limit, ~15x fewer rows ranked
    ), ranked AS (
        SELECT s.article, s.id, s.n, row_number() OVER (PARTITION BY s.article ORDER BY s.n DESC, s.id DESC) AS r
        FROM shared_count s
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
        SELECT r.article, r.id, false, false, r.n
        FROM ranked r
        WHERE r.r <= p_limit
    ), candidate AS (
        SELECT found.article, found.id, bool_or(found.exact) AS exact, bool_or(found.near) AS near,
               max(found.shared) AS shared
        FROM found JOIN batch b ON b.article = found.article
        WHERE found.id IS DISTINCT FROM b.self_id
        GROUP BY found.article, found.id
    ), article_keywords AS (
        SELECT bk.article, array_agg(bk.keyword) AS keywords FROM batch_keyword bk GROUP BY bk.article
    )
    SELECT 'self', b.article, f.id, f.url, false, false, 0, f.source_hash, f.canonical_id,
           (SELECT c.url FROM near_duplicate_features c WHERE c.id = f.canonical_id),
           f.duplicate_method, f.duplicate_score,
           EXISTS (SELECT 1 FROM near_duplicate_features m WHERE m.canonical_id = f.id),
           f.language, f.keywords, NULL::text[], f.simhash, NULL::bigint[], 0, 0, NULL::text
    FROM batch b JOIN near_duplicate_features f ON f.id = b.self_id
    UNION ALL
    SELECT 'candidate', c.article, f.id, f.url, c.exact, c.near, c.shared, NULL, f.canonical_id, NULL, NULL, NULL,
           NULL, f.language, f.keywords, f.title_keywords, f.simhash, f.sketch, f.shingle_count, f.token_count,
           f.body_hash
    FROM candidate c JOIN near_duplicate_features f ON f.id = c.id
    LEFT JOIN article_keywords ak ON ak.article = c.article
    CROSS JOIN LATERAL (SELECT count(*)::double precision AS n FROM unnest(f.keywords) AS k
                        WHERE k = ANY (ak.keywords)) s
    WHERE c.exact OR c.near OR s.n / greatest(1, CASE WHEN p_overlap = 'min'
        THEN least(cardinality(f.keywords), cardinality(ak.keywords))
        ELSE cardinality(f.keywords) + cardinality(ak.keywords) - s.n END) >= p_tau - 1e-9;
END
$$;
