-- Named queries of full-text search (migrations/0004_builds_search.sql, 0015_search_queue.sql); parameters are
-- always bound.

-- name: queued_articles
-- The queue (filled by triggers on articles and near_duplicate_features), by article id: its primary key, so an
-- empty queue costs one index page whatever the corpus size.
SELECT article_id, change
FROM article_search_queue
ORDER BY article_id
LIMIT %(batch_size)s

-- name: queued_count
SELECT count(*) FROM article_search_queue

-- name: published_texts
-- Those of the queued articles that are published, with the text to index.
SELECT id, title, body, revised_at
FROM corpus_articles
WHERE id = ANY(%(ids)s::bigint[])

-- name: upsert_article_search
-- title and body arrive segmented (space-separated terms); the title weighs more in the ranking.
INSERT INTO article_search (article_id, vector, indexed_at)
VALUES (%(article_id)s,
        setweight(to_tsvector('simple', %(title)s), 'A') || setweight(to_tsvector('simple', %(body)s), 'B'),
        %(revised_at)s)
ON CONFLICT (article_id) DO UPDATE SET vector = EXCLUDED.vector, indexed_at = EXCLUDED.indexed_at

-- name: delete_article_search
-- Queued articles that are no longer published (near-duplicates, emptied bodies) leave the index.
DELETE FROM article_search WHERE article_id = ANY(%(ids)s::bigint[])

-- name: dequeue_articles
-- Only the queueings that were read: an article queued again meanwhile has a new change number and stays.
DELETE FROM article_search_queue q
USING unnest(%(ids)s::bigint[], %(changes)s::bigint[]) AS d (article_id, change)
WHERE q.article_id = d.article_id AND q.change = d.change

-- name: indexed_id_range
-- The smallest and largest article id in the index (both ends of its primary key).
SELECT min(article_id), max(article_id) FROM article_search

-- name: serial_plans
-- For the search's transaction: starting a parallel worker costs more than it saves on a top 1,000 (rare word
-- 6.7 -> 3.9 ms, two words 19 -> 12 ms at 300k articles, benchmarks/search_scale.py).
SET LOCAL max_parallel_workers_per_gather = 0

-- name: estimated_matches
-- The planner's estimate of a query's matches (from the tsvector statistics ANALYZE keeps): sizes the first
-- window of newest articles without reading any match.
EXPLAIN (FORMAT JSON) SELECT 1 FROM article_search WHERE vector @@ to_tsquery('simple', %(query)s)

-- name: search_articles
-- The query arrives as a to_tsquery expression built by newscorpus.core.search_terms.query_expression:
-- segmented like the indexed text, every part of the user's query must occur. Only the newest %(candidates)s
-- matches with an id above %(floor)s are ranked; newscorpus.store.search.ranked_matches lowers the floor until
-- there are that many or it is below every id. With a floor near the top the planner ANDs the GIN bitmap with
-- the id range, or walks the primary key backwards (a common word), so no search reads every match's row. The
-- tsquery is written out (not a CTE) so the planner sees the words and their frequencies; the filters' article
-- lookup folds away when no filter is given. Only the best %(limit)s are joined to corpus_articles (the index
-- pass just before keeps article_search within the published corpus). Last column: how many candidates there
-- were.
WITH candidates AS MATERIALIZED (
    SELECT s.article_id, s.vector
    FROM article_search s
    WHERE s.vector @@ to_tsquery('simple', %(query)s)
      AND s.article_id > %(floor)s
      AND (%(site)s::text IS NULL AND %(since)s::date IS NULL AND %(until)s::date IS NULL
           OR EXISTS (SELECT 1 FROM articles a JOIN sites si ON si.id = a.site_id
                      WHERE a.id = s.article_id
                        AND (%(site)s::text IS NULL OR si.name = %(site)s)
                        AND (%(since)s::date IS NULL OR coalesce(a.published_at, a.first_seen) >= %(since)s::date)
                        AND (%(until)s::date IS NULL
                             OR coalesce(a.published_at, a.first_seen) < %(until)s::date + 1)))
    ORDER BY s.article_id DESC
    LIMIT %(candidates)s
),
ranked AS (
    SELECT k.article_id, ts_rank_cd(k.vector, to_tsquery('simple', %(query)s)) AS rank,
           coalesce(a.published_at, a.first_seen) AS seen
    FROM candidates k
    JOIN articles a ON a.id = k.article_id
    ORDER BY rank DESC, seen DESC, k.article_id DESC
    LIMIT %(limit)s
)
SELECT c.id, c.site, c.url, c.title, c.published_at, c.first_seen, c.language, c.body, r.rank,
       (SELECT count(*) FROM candidates) AS candidates
FROM ranked r
JOIN corpus_articles c ON c.id = r.article_id
ORDER BY r.rank DESC, r.seen DESC, r.article_id DESC
