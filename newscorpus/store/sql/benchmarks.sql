-- Reads of the benchmarks (benchmarks/real_site.py): what one crawl stored, in its own schema.

-- name: fetched_pages
-- The latest fetch of each page (the final URL: redirects followed).
SELECT DISTINCT ON (p.final_url) p.final_url AS url, p.outcome, p.raw_body
FROM pages p
ORDER BY p.final_url, p.fetched_at DESC, p.id DESC

-- name: stored_articles
-- Every article with its page bytes, its published body (NULL: not in corpus_articles) and its near-duplicate
-- link (the cluster's canonical article).
SELECT a.url, a.title, a.author, a.published_at, a.body, a.clean_body, a.extraction_method, p.raw_body,
       c.body AS published, canonical.url AS canonical_url, d.duplicate_method, d.duplicate_score
FROM articles a
LEFT JOIN pages p ON p.id = a.page_id
LEFT JOIN corpus_articles c ON c.id = a.id
LEFT JOIN near_duplicate_features d ON d.url = a.url
LEFT JOIN near_duplicate_features canonical ON canonical.id = d.canonical_id
ORDER BY a.id

-- name: near_duplicate_index_sizes
-- Bytes of the near-duplicate index per part (benchmarks/near_duplicate_throughput.py): the features rows without the GIN
-- index, the keyword index (posting table and its btree, or the GIN index), the simhash block keys.
SELECT 'features', pg_total_relation_size('near_duplicate_features')
  - coalesce(pg_relation_size(to_regclass('near_duplicate_features_keywords_gin')), 0)
UNION ALL SELECT 'keywords', CASE WHEN %(layout)s = 'table' THEN pg_total_relation_size('near_duplicate_keywords')
  ELSE pg_relation_size(to_regclass('near_duplicate_features_keywords_gin')) END
UNION ALL SELECT 'blocks', pg_total_relation_size('near_duplicate_blocks')

-- name: near_duplicate_forget_postings
DELETE FROM near_duplicate_keywords WHERE article_id > %(indexed)s

-- name: near_duplicate_forget_blocks
DELETE FROM near_duplicate_blocks WHERE article_id > %(indexed)s

-- name: near_duplicate_forget_links
UPDATE near_duplicate_features SET canonical_id = NULL, duplicate_method = NULL, duplicate_score = NULL,
       matched_id = NULL, resolved = false
WHERE canonical_id > %(indexed)s

-- name: near_duplicate_forget_features
DELETE FROM near_duplicate_features WHERE id > %(indexed)s

-- name: schema_postings_read
-- Index tuples read from a schema's keyword posting table, from the server's statistics.
SELECT coalesce(sum(idx_tup_read), 0) FROM pg_stat_user_indexes
WHERE schemaname = %(schema)s AND relname = 'near_duplicate_keywords'

-- name: schema_buffers
-- Buffers touched (heap, indexes, TOAST) in a schema's tables, and of those the ones read from the OS.
SELECT coalesce(sum(coalesce(heap_blks_hit, 0) + coalesce(idx_blks_hit, 0) + coalesce(toast_blks_hit, 0)
                    + coalesce(tidx_blks_hit, 0)), 0),
       coalesce(sum(coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0) + coalesce(toast_blks_read, 0)
                    + coalesce(tidx_blks_read, 0)), 0)
FROM pg_statio_user_tables WHERE schemaname = %(schema)s

-- name: insert_numbered_sites
-- Sites 'site1' .. 'site<count>' (benchmarks/line_noise_throughput.py).
INSERT INTO sites (name) SELECT 'site' || n FROM generate_series(1, %(count)s) n

-- name: search_scale_articles
-- benchmarks/search_scale.py: one slice of synthetic published articles, 6-word titles and 150-word bodies over a
-- %(words)s-word vocabulary whose word of rank r is 'q' + r in letters (q + bcd = rank 123), ranks drawn
-- log-uniformly (P(rank r) ~ 1/r, Zipf-like), a minute apart. Words are plain lower-case \w runs, so
-- to_tsvector('simple', ...) of them equals the index's segmented text.
INSERT INTO articles (site_id, url, title, body, language, body_hash, first_seen, last_seen, updated_at,
                      published_at)
SELECT %(site_id)s::int, 'https://synthetic.example/' || n, t.text, b.text, 'en', md5(n::text),
       timestamptz '2020-01-01' + n * interval '1 minute', timestamptz '2020-01-01' + n * interval '1 minute',
       timestamptz '2020-01-01' + n * interval '1 minute', timestamptz '2020-01-01' + n * interval '1 minute'
FROM generate_series(%(first)s::int, %(last)s::int) AS n
CROSS JOIN LATERAL (
    SELECT string_agg('q' || translate(least(%(words)s::int, floor(exp(random() * ln(%(words)s::int)))::int)::text,
                                       '0123456789', 'abcdefghij'), ' ') AS text
    FROM generate_series(1, 6 + 0 * n)
) t
CROSS JOIN LATERAL (
    SELECT string_agg('q' || translate(least(%(words)s::int, floor(exp(random() * ln(%(words)s::int)))::int)::text,
                                       '0123456789', 'abcdefghij'), ' ') AS text
    FROM generate_series(1, 150 + 0 * n)
) b

-- name: search_scale_index_synthetic
-- The synthetic articles' search rows written by SQL (what index_search would write for plain lower-case words),
-- and their queueings taken off the queue.
WITH written AS (
    INSERT INTO article_search (article_id, vector, indexed_at)
    SELECT id, setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B'),
           updated_at
    FROM articles WHERE site_id = %(site_id)s
    RETURNING article_id
)
DELETE FROM article_search_queue q USING written w WHERE q.article_id = w.article_id

-- name: search_scale_matches
-- How many published articles match a to_tsquery expression.
SELECT count(*) FROM article_search WHERE vector @@ to_tsquery('simple', %(query)s)

-- name: search_scale_full_ranking
-- The anchor: every match scored with ts_rank_cd, then sorted (the search before candidates were bounded).
SELECT c.id, ts_rank_cd(s.vector, to_tsquery('simple', %(query)s)) AS rank
FROM article_search s
JOIN corpus_articles c ON c.id = s.article_id
WHERE s.vector @@ to_tsquery('simple', %(query)s)
ORDER BY rank DESC, coalesce(c.published_at, c.first_seen) DESC, c.id DESC
LIMIT %(limit)s

-- name: search_scale_corpus_scan
-- The anchor: the corpus scan for articles to index that every search ran before the queue (migrations/0015).
SELECT c.id
FROM corpus_articles c
LEFT JOIN article_search s ON s.article_id = c.id
WHERE s.article_id IS NULL OR c.revised_at > s.indexed_at
ORDER BY c.id
LIMIT 500
