-- Reads of benchmarks/real_site.py: what one crawl stored, in its own schema.

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
