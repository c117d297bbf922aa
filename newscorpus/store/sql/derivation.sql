-- Named queries of the derivation (newscorpus.store.derivation): a site's articles again from its stored pages.

-- name: lock_site
-- One derivation of a site at a time (workers closing together, `clean` beside a crawl's end); held to commit.
SELECT pg_advisory_xact_lock(hashtextextended('newscorpus/derivation/' || %(site_id)s::text, 0))

-- name: site_languages
SELECT languages FROM sites WHERE id = %(site_id)s

-- name: set_site_languages
UPDATE sites SET languages = %(languages)s WHERE id = %(site_id)s AND languages IS DISTINCT FROM %(languages)s

-- name: site_pages
-- The content each of the site's extracted URLs has now (the row seen last), in URL order: every page the
-- crawl extracted (not listings by URL, nor the outcomes the spider gives before extraction).
SELECT DISTINCT ON (p.url) p.id, p.url, p.final_url, p.content_type, p.content_hash, p.raw_body, p.fetched_at
FROM pages p
WHERE p.site_id = %(site_id)s
  AND p.raw_body IS NOT NULL
  AND p.url_kind <> 'listing'
  AND NOT (p.outcome = ANY(%(not_extracted)s::text[]))
ORDER BY p.url, p.last_seen DESC, p.fetched_at DESC, p.id DESC

-- name: upsert_article
-- The derived article; a row whose values are all as derived is not written (RETURNING gives the ones written).
INSERT INTO articles (site_id, url, page_id, title, author, published_at, body, language, body_hash, encoding,
                      extraction_method, confidence, first_seen, last_seen, updated_at,
                      published_date, published_utc_offset, modified_at, authors, site_name,
                      extractor_version, site_model_version)
VALUES (%(site_id)s, %(url)s, %(page_id)s, %(title)s, %(author)s, %(published_at)s, %(body)s, %(language)s,
        %(body_hash)s, %(encoding)s, %(extraction_method)s, %(confidence)s, %(seen_at)s, %(seen_at)s, now(),
        %(published_date)s, %(published_utc_offset)s::interval, %(modified_at)s, %(authors)s, %(site_name)s,
        %(extractor_version)s, %(site_model_version)s)
ON CONFLICT (url) DO UPDATE
SET page_id = EXCLUDED.page_id,
    updated_at = CASE
        WHEN (articles.body_hash, articles.title, articles.author, articles.published_at)
             IS DISTINCT FROM (EXCLUDED.body_hash, EXCLUDED.title, EXCLUDED.author, EXCLUDED.published_at)
        THEN now() ELSE articles.updated_at END,
    title = EXCLUDED.title, author = EXCLUDED.author, published_at = EXCLUDED.published_at, body = EXCLUDED.body,
    language = EXCLUDED.language, body_hash = EXCLUDED.body_hash, encoding = EXCLUDED.encoding,
    extraction_method = EXCLUDED.extraction_method, confidence = EXCLUDED.confidence,
    published_date = EXCLUDED.published_date, published_utc_offset = EXCLUDED.published_utc_offset,
    modified_at = EXCLUDED.modified_at, authors = EXCLUDED.authors, site_name = EXCLUDED.site_name,
    extractor_version = EXCLUDED.extractor_version, site_model_version = EXCLUDED.site_model_version
WHERE (articles.page_id, articles.title, articles.author, articles.published_at, articles.body, articles.language,
       articles.encoding, articles.extraction_method, articles.confidence, articles.published_date,
       articles.published_utc_offset, articles.modified_at, articles.authors, articles.site_name,
       articles.extractor_version, articles.site_model_version)
      IS DISTINCT FROM
      (EXCLUDED.page_id, EXCLUDED.title, EXCLUDED.author, EXCLUDED.published_at, EXCLUDED.body, EXCLUDED.language,
       EXCLUDED.encoding, EXCLUDED.extraction_method, EXCLUDED.confidence, EXCLUDED.published_date,
       EXCLUDED.published_utc_offset, EXCLUDED.modified_at, EXCLUDED.authors, EXCLUDED.site_name,
       EXCLUDED.extractor_version, EXCLUDED.site_model_version)
RETURNING id

-- name: set_page_outcome
-- A page's derived outcome, written only when it differs.
UPDATE pages SET outcome = %(outcome)s, outcome_detail = NULL, encoding = %(encoding)s
WHERE id = %(page_id)s AND (outcome, outcome_detail, encoding) IS DISTINCT FROM (%(outcome)s, NULL, %(encoding)s)
RETURNING id

-- name: set_line_kinds
INSERT INTO line_noise_line_kinds (url, body_hash, kinds)
VALUES (%(url)s, %(body_hash)s, %(kinds)s)
ON CONFLICT (url) DO UPDATE SET body_hash = EXCLUDED.body_hash, kinds = EXCLUDED.kinds
WHERE (line_noise_line_kinds.body_hash, line_noise_line_kinds.kinds) IS DISTINCT FROM (EXCLUDED.body_hash, EXCLUDED.kinds)

-- name: stale_articles
-- The site's articles that no stored page derives to any more (their page is now not an article).
SELECT a.id, a.url FROM articles a WHERE a.site_id = %(site_id)s AND NOT (a.url = ANY(%(urls)s::text[]))
ORDER BY a.url

-- name: unlink_members
-- Members of a deleted article's near-duplicate cluster: canonical again, to be resolved again.
UPDATE near_duplicate_features SET canonical_id = NULL, duplicate_method = NULL, duplicate_score = NULL,
       matched_id = NULL, resolved = false
WHERE canonical_id IN (SELECT id FROM near_duplicate_features WHERE url = ANY(%(urls)s::text[]))

-- name: delete_articles
WITH features AS (DELETE FROM near_duplicate_features WHERE url = ANY(%(urls)s::text[]) RETURNING id),
     keywords AS (DELETE FROM near_duplicate_keywords WHERE article_id IN (SELECT id FROM features)),
     blocks AS (DELETE FROM near_duplicate_blocks WHERE article_id IN (SELECT id FROM features)),
     counted AS (DELETE FROM line_noise_articles WHERE url = ANY(%(urls)s::text[]))
DELETE FROM articles WHERE url = ANY(%(urls)s::text[])

-- name: reset_line_statistics
-- The site's line statistics emptied, to be counted again from its articles in URL order.
WITH lines AS (DELETE FROM line_counts WHERE site_id = %(site_id)s),
     samples AS (DELETE FROM line_samples WHERE site_id = %(site_id)s),
     counted AS (DELETE FROM line_noise_articles WHERE site_id = %(site_id)s)
UPDATE site_line_stats SET articles_seen = 0, pruned_at = 0, lines_pruned = 0 WHERE site_id = %(site_id)s

-- name: site_articles
-- The site's articles in URL order, with the line kinds the extractor gave their body.
SELECT a.id, a.url, a.title, a.body, a.body_hash, a.language, k.kinds
FROM articles a
LEFT JOIN line_noise_line_kinds k ON k.url = a.url AND k.body_hash = a.body_hash
WHERE a.site_id = %(site_id)s
ORDER BY a.url

-- name: set_clean_body
-- The article cleaned with the site's final statistics; not written when nothing differs.
UPDATE articles
SET clean_body = %(clean_body)s, noise_lines = %(noise_lines)s, noise_hashes = %(noise_hashes)s::uuid[],
    cleaned_with_articles_seen = %(articles_seen)s, cleaned_at = now(), line_stats_version = %(line_stats_version)s
WHERE id = %(id)s
  AND (clean_body, noise_lines, noise_hashes, cleaned_with_articles_seen, line_stats_version)
      IS DISTINCT FROM (%(clean_body)s, %(noise_lines)s, %(noise_hashes)s::uuid[], %(articles_seen)s,
                        %(line_stats_version)s)
RETURNING id

-- name: near_duplicate_sources
-- The source hash each of the site's articles was last checked for near-duplicates with.
SELECT url, source_hash FROM near_duplicate_features WHERE site_id = %(site_id)s

-- name: published_digest_rows
-- What the corpus digest covers, per published article, in URL order (newscorpus.store.derivation.corpus_digest).
SELECT c.url, c.title, c.authors, c.published_at, c.published_date, c.published_utc_offset, c.language, c.body,
       (SELECT d2.url FROM near_duplicate_features d JOIN near_duplicate_features d2 ON d2.id = d.canonical_id
        WHERE d.url = c.url) AS duplicate_of
FROM (
    SELECT a.url, a.title, a.authors, a.published_at, a.published_date, a.published_utc_offset, a.language,
           coalesce(a.clean_body, a.body) AS body
    FROM articles a JOIN sites s ON s.id = a.site_id
    WHERE coalesce(a.clean_body, a.body) <> '' AND (%(site)s::text IS NULL OR s.name = %(site)s)
) c
ORDER BY c.url

-- name: set_article_page_outcomes
-- The page of each of the site's articles: `empty_after_cleaning` when cleaning left no text, else `article`.
UPDATE pages p
SET outcome = CASE WHEN a.clean_body = '' THEN 'empty_after_cleaning' ELSE 'article' END, outcome_detail = NULL
FROM articles a
WHERE a.site_id = %(site_id)s AND p.id = a.page_id
  AND (p.outcome, p.outcome_detail) IS DISTINCT FROM
      (CASE WHEN a.clean_body = '' THEN 'empty_after_cleaning' ELSE 'article' END, NULL)
RETURNING p.id

-- name: published_articles
-- The site's articles with a published body, in URL order: what the near-duplicate check reads.
SELECT a.url, a.title, coalesce(a.clean_body, a.body), a.language
FROM articles a
WHERE a.site_id = %(site_id)s AND coalesce(a.clean_body, a.body) <> ''
ORDER BY a.url

-- name: unpublished_with_features
SELECT a.url FROM articles a JOIN near_duplicate_features d ON d.url = a.url
WHERE a.site_id = %(site_id)s AND coalesce(a.clean_body, a.body) = ''

-- name: delete_features
WITH features AS (DELETE FROM near_duplicate_features WHERE url = ANY(%(urls)s::text[]) RETURNING id),
     keywords AS (DELETE FROM near_duplicate_keywords WHERE article_id IN (SELECT id FROM features))
DELETE FROM near_duplicate_blocks WHERE article_id IN (SELECT id FROM features)

-- name: provisional_article
SELECT 1 FROM articles a JOIN sites s ON s.id = a.site_id
WHERE s.name = %(site)s AND a.extractor_version IS NULL
LIMIT 1

-- name: clusters_of_site
-- Every member of each near-duplicate cluster that holds an article of the site: the cluster's canonical id,
-- the member's id, url, token count and publication instant.
WITH roots AS (
    SELECT DISTINCT coalesce(d.canonical_id, d.id) AS root
    FROM near_duplicate_features d
    WHERE d.site_id = %(site_id)s
)
SELECT r.root, d.id, d.url, d.token_count, a.published_at, d.duplicate_method, d.duplicate_score, d.matched_id
FROM roots r
JOIN near_duplicate_features d ON d.id = r.root OR d.canonical_id = r.root
LEFT JOIN articles a ON a.url = d.url
ORDER BY r.root, d.id

-- name: make_canonical
UPDATE near_duplicate_features SET canonical_id = NULL, duplicate_method = NULL, duplicate_score = NULL,
       matched_id = NULL
WHERE id = %(id)s

-- name: link_to_canonical
UPDATE near_duplicate_features SET canonical_id = %(canonical_id)s, duplicate_method = %(method)s,
       duplicate_score = %(score)s, matched_id = %(matched_id)s
WHERE id = %(id)s
