-- Named queries of the stored-article check (crawler.refetch): one lookup on the unique index of articles.url.

-- name: stored_recently
SELECT EXISTS (
    SELECT 1 FROM articles
    WHERE url = %(url)s AND last_seen > now() - %(hours)s * interval '1 hour'
)
