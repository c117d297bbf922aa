-- Named queries of the stored-article check (newscorpus.crawl.refetch): lookups on the unique index of articles.url.

-- name: stored_recently
-- The URLs of %(urls)s stored and seen less than %(hours)s ago: the questions that arrived together, one round trip.
SELECT url FROM articles
WHERE url = ANY(%(urls)s::text[]) AND last_seen > now() - %(hours)s * interval '1 hour'
