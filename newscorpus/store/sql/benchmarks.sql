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
