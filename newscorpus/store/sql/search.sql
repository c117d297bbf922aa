-- Named queries of full-text search (migrations/0004_builds_search.sql); parameters are always bound.

-- name: articles_to_index
-- Published articles with no search row, or revised since they were indexed; keyset-paged by id.
SELECT c.id, c.title, c.body, c.revised_at
FROM corpus_articles c
LEFT JOIN article_search s ON s.article_id = c.id
WHERE c.id > %(after_id)s
  AND (s.article_id IS NULL OR c.revised_at > s.indexed_at)
ORDER BY c.id
LIMIT %(batch_size)s

-- name: upsert_article_search
-- title and body arrive segmented (space-separated terms); the title weighs more in the ranking.
INSERT INTO article_search (article_id, vector, indexed_at)
VALUES (%(article_id)s,
        setweight(to_tsvector('simple', %(title)s), 'A') || setweight(to_tsvector('simple', %(body)s), 'B'),
        %(revised_at)s)
ON CONFLICT (article_id) DO UPDATE SET vector = EXCLUDED.vector, indexed_at = EXCLUDED.indexed_at

-- name: search_articles
-- The query arrives as a to_tsquery expression built by newscorpus.core.search_terms.query_expression:
-- segmented like the indexed text, every part of the user's query must occur.
WITH q AS (SELECT to_tsquery('simple', %(query)s) AS query)
SELECT c.id, c.site, c.url, c.title, c.published_at, c.first_seen, c.language, c.body,
       ts_rank_cd(s.vector, q.query) AS rank
FROM q, article_search s
JOIN corpus_articles c ON c.id = s.article_id
WHERE s.vector @@ q.query
  AND (%(site)s::text IS NULL OR c.site = %(site)s)
  AND (%(since)s::date IS NULL OR coalesce(c.published_at, c.first_seen) >= %(since)s::date)
  AND (%(until)s::date IS NULL OR coalesce(c.published_at, c.first_seen) < %(until)s::date + 1)
ORDER BY rank DESC, coalesce(c.published_at, c.first_seen) DESC, c.id DESC
LIMIT %(limit)s
