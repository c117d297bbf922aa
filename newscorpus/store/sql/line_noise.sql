-- Named queries of the line-noise statistics (migrations/0002_line_noise.sql); parameters always bound.

-- name: count_article
-- One round trip per article: the hashes arrive sorted; the function locks the site row, then line rows in
-- hash order, and upserts LC (articles = line_counts.articles + EXCLUDED.articles) and RC atomically. The
-- body's line kinds (migrations/0012) are kept beside it, when known, for re-cleaning.
WITH kinds AS (
    INSERT INTO line_noise_line_kinds (url, body_hash, kinds)
    SELECT %(url)s, %(body_hash)s, %(kinds)s::text WHERE %(kinds)s::text IS NOT NULL
    ON CONFLICT (url) DO UPDATE SET body_hash = EXCLUDED.body_hash, kinds = EXCLUDED.kinds
)
SELECT o_articles_seen, o_counts, o_allowed, o_status, o_pruned
FROM line_noise_count_article(%(site_id)s, %(url)s, %(body_hash)s, %(hash_array)s::uuid[], %(sample_array)s::text[],
                              %(prune_interval)s, %(prune_divisor)s, %(sample_min)s)

-- name: site_by_name
SELECT s.id, coalesce(st.articles_seen, 0)
FROM sites s
LEFT JOIN site_line_stats st ON st.site_id = s.id
WHERE s.name = %(site)s

-- name: articles_seen
-- The site's RC: the articles counted so far (no row: none).
SELECT articles_seen FROM site_line_stats WHERE site_id = %(site_id)s

-- name: frequent_lines
-- The site's lines seen in at least min_articles articles: the only ones that can be noise.
SELECT line_hash, articles FROM line_counts WHERE site_id = %(site_id)s AND articles >= %(min_articles)s

-- name: allowed_lines
SELECT line_hash FROM line_noise_allowlist WHERE site_id = %(site_id)s

-- name: noise_report
-- The site's lines removed from the most stored articles, with LC, a sample text, and the allow-list flag.
WITH removed AS (
    SELECT h AS line_hash, count(*) AS removed
    FROM articles a, unnest(a.noise_hashes) AS h
    WHERE a.site_id = %(site_id)s
    GROUP BY h
)
SELECT r.line_hash, r.removed, coalesce(c.articles, 0) AS articles, s.sample, (w.line_hash IS NOT NULL) AS allowed
FROM removed r
LEFT JOIN line_counts c ON c.site_id = %(site_id)s AND c.line_hash = r.line_hash
LEFT JOIN line_samples s ON s.site_id = %(site_id)s AND s.line_hash = r.line_hash
LEFT JOIN line_noise_allowlist w ON w.site_id = %(site_id)s AND w.line_hash = r.line_hash
ORDER BY r.removed DESC, r.line_hash
LIMIT %(limit)s

-- name: line_sample
SELECT sample FROM line_samples WHERE site_id = %(site_id)s AND line_hash = %(line_hash)s

-- name: line_count
-- LC of one line of one site (no row: no stored article of the site has it)
SELECT articles FROM line_counts WHERE site_id = %(site_id)s AND line_hash = %(line_hash)s

-- name: allow_line
INSERT INTO line_noise_allowlist (site_id, line_hash, sample)
VALUES (%(site_id)s, %(line_hash)s, %(sample)s)
ON CONFLICT (site_id, line_hash) DO NOTHING

-- name: table_sizes
SELECT (SELECT count(*) FROM line_counts) AS line_counts_rows,
       pg_total_relation_size('line_counts') AS line_counts_bytes,
       (SELECT count(*) FROM line_samples) AS line_samples_rows,
       pg_total_relation_size('line_samples') AS line_samples_bytes,
       (SELECT count(*) FROM line_noise_articles) AS ledger_rows,
       pg_total_relation_size('line_noise_articles') AS ledger_bytes
