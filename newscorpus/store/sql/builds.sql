-- Named queries of scheduled builds and corpus statistics (migrations/0004_builds_search.sql).

-- name: try_build_lock
-- One build at a time per corpus: the key is the schema, so test schemas (and separate corpora sharing a
-- database) do not block each other. Held by the build's dedicated connection until it closes.
SELECT pg_try_advisory_lock(%(lock_class)s, hashtext(current_schema()))

-- name: running_build
SELECT id, build_key, started_at, phase, sites, site_configs, since, out_dir, pid, hostname, attempts
FROM builds WHERE status = 'running' ORDER BY id DESC LIMIT 1

-- name: insert_build
INSERT INTO builds (build_key, sites, site_configs, since, out_dir, pid, hostname)
VALUES ('pending-' || txid_current(), %(sites)s, %(site_configs)s, %(since)s, %(out_dir)s, %(pid)s, %(hostname)s)
RETURNING id, started_at

-- name: set_build_key
UPDATE builds SET build_key = %(build_key)s WHERE id = %(build_id)s

-- name: resume_build
UPDATE builds SET attempts = attempts + 1, pid = %(pid)s, hostname = %(hostname)s WHERE id = %(build_id)s

-- name: abandon_build
UPDATE builds SET status = 'abandoned', finished_at = now(), error = %(error)s WHERE id = %(build_id)s

-- name: set_build_phase
UPDATE builds SET phase = %(phase)s, report = report || %(report)s WHERE id = %(build_id)s

-- name: add_build_crawl_runs
UPDATE builds SET crawl_run_ids = ARRAY(SELECT DISTINCT unnest(crawl_run_ids || %(ids)s::bigint[]) ORDER BY 1)
WHERE id = %(build_id)s

-- name: build_row
SELECT id, build_key, started_at, finished_at, status, phase, sites, since, out_dir, attempts, crawl_run_ids,
       report, error
FROM builds WHERE id = %(build_id)s

-- name: finish_build
UPDATE builds SET status = %(status)s, phase = %(phase)s, finished_at = now(), report = %(report)s,
                  error = %(error)s
WHERE id = %(build_id)s

-- name: crawl_run_counters
SELECT r.id, s.name AS site, r.started_at, r.finished_at, r.finish_reason, r.counters
FROM crawl_runs r
LEFT JOIN sites s ON s.id = r.site_id
WHERE r.id = ANY (%(ids)s)
ORDER BY r.id

-- name: snapshot_articles
-- The snapshot: the published corpus of the build's sites, optionally only articles first seen (or
-- published) on or after `since`.
SELECT id, site, url, title, author, published_at, language, body, extraction_method, first_seen, last_seen,
       updated_at
FROM corpus_articles
WHERE site = ANY (%(sites)s)
  AND (%(since)s::date IS NULL OR first_seen >= %(since)s::date OR published_at >= %(since)s::date)
ORDER BY id

-- name: fold_corpus_counts
-- The counts' changes since the last fold added to the totals (migrations/0018_corpus_counts.sql); how many.
SELECT corpus_counts_fold()

-- name: articles_per_site_day
-- Published articles (corpus_articles) per site and day (published, else first seen) in the session's time zone:
-- the 15-minute bins kept on write (migrations/0018_corpus_counts.sql) summed per day.
SELECT s.name AS site, c.day_bin::date AS day, sum(c.articles)::bigint AS articles
FROM site_day_counts c JOIN sites s ON s.id = c.site_id
WHERE c.articles <> 0
  AND (%(site)s::text IS NULL OR s.name = %(site)s)
  AND (%(since)s::date IS NULL OR c.day_bin >= %(since)s::date)
  AND (%(until)s::date IS NULL OR c.day_bin < %(until)s::date + 1)
GROUP BY 1, 2
HAVING sum(c.articles) > 0
ORDER BY 1, 2

-- name: duplicate_counts
-- Stored articles per site, how many distinct bodies, and how many are linked near-duplicates (kept on write).
SELECT s.name AS site, c.articles, c.distinct_bodies, c.near_duplicates
FROM site_counts c JOIN sites s ON s.id = c.site_id
WHERE c.articles > 0 AND (%(site)s::text IS NULL OR s.name = %(site)s)
ORDER BY 1

-- name: noise_counts
-- articles.noise_lines / clean_body (migrations/0002_line_noise.sql) of the cleaned articles per site; lines =
-- non-empty body lines (articles.body_lines), kept on write.
SELECT s.name AS site, c.cleaned_articles, c.noise_lines, c.body_lines
FROM site_counts c JOIN sites s ON s.id = c.site_id
WHERE c.articles > 0 AND (%(site)s::text IS NULL OR s.name = %(site)s)
ORDER BY 1
