-- Named queries of the core corpus tables; parameters are always bound (%(name)s).

-- name: ensure_site
INSERT INTO sites (name) VALUES (%(name)s)
ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
RETURNING id

-- name: start_crawl_run
INSERT INTO crawl_runs (site_id) VALUES (%(site_id)s) RETURNING id

-- name: finish_crawl_run
UPDATE crawl_runs
SET finished_at = now(), finish_reason = %(finish_reason)s, counters = %(counters)s
WHERE id = %(crawl_run_id)s

-- name: upsert_page
INSERT INTO pages (site_id, url, final_url, status, content_type, encoding, content_hash, raw_body, raw_size,
                   url_kind, outcome, outcome_detail, fetched_at, last_seen, crawl_run_id, warc_file, warc_offset)
VALUES (%(site_id)s, %(url)s, %(final_url)s, %(status)s, %(content_type)s, %(encoding)s, %(content_hash)s,
        %(raw_body)s, %(raw_size)s, %(url_kind)s, %(outcome)s, %(outcome_detail)s, %(fetched_at)s,
        %(fetched_at)s, %(crawl_run_id)s, %(warc_file)s, %(warc_offset)s)
ON CONFLICT (url, content_hash) DO UPDATE
SET last_seen = greatest(pages.last_seen, EXCLUDED.last_seen),
    fetch_count = pages.fetch_count + 1,
    final_url = EXCLUDED.final_url,
    status = EXCLUDED.status,
    encoding = coalesce(EXCLUDED.encoding, pages.encoding),
    outcome = EXCLUDED.outcome,
    outcome_detail = EXCLUDED.outcome_detail,
    crawl_run_id = EXCLUDED.crawl_run_id,
    warc_file = EXCLUDED.warc_file,
    warc_offset = EXCLUDED.warc_offset
RETURNING id, (xmax = 0) AS inserted

-- name: upsert_article
INSERT INTO articles (site_id, url, page_id, title, author, published_at, body, language, body_hash, encoding,
                      extraction_method, confidence, first_seen, last_seen, updated_at,
                      clean_body, noise_lines, noise_hashes, cleaned_with_articles_seen, cleaned_at,
                      published_date, published_utc_offset, modified_at, authors, site_name)
VALUES (%(site_id)s, %(url)s,
        (SELECT id FROM pages WHERE url = %(page_url)s AND content_hash = %(content_hash)s),
        %(title)s, %(author)s, %(published_at)s, %(body)s, %(language)s, %(body_hash)s, %(encoding)s,
        %(extraction_method)s, %(confidence)s, %(seen_at)s, %(seen_at)s, %(seen_at)s,
        %(clean_body)s, %(noise_lines)s, %(noise_hashes)s::uuid[], %(cleaned_with_articles_seen)s,
        CASE WHEN %(clean_body)s::text IS NULL THEN NULL ELSE now() END,
        %(published_date)s, %(published_utc_offset)s::interval, %(modified_at)s, %(authors)s, %(site_name)s)
ON CONFLICT (url) DO UPDATE
SET last_seen = greatest(articles.last_seen, EXCLUDED.last_seen),
    page_id = coalesce(EXCLUDED.page_id, articles.page_id),
    updated_at = CASE
        WHEN (articles.body_hash, articles.title, articles.author, articles.published_at)
             IS DISTINCT FROM (EXCLUDED.body_hash, EXCLUDED.title, EXCLUDED.author, EXCLUDED.published_at)
        THEN EXCLUDED.updated_at ELSE articles.updated_at END,
    title = EXCLUDED.title,
    author = EXCLUDED.author,
    published_at = EXCLUDED.published_at,
    body = EXCLUDED.body,
    language = EXCLUDED.language,
    body_hash = EXCLUDED.body_hash,
    encoding = EXCLUDED.encoding,
    extraction_method = EXCLUDED.extraction_method,
    confidence = EXCLUDED.confidence,
    clean_body = EXCLUDED.clean_body,
    noise_lines = EXCLUDED.noise_lines,
    noise_hashes = EXCLUDED.noise_hashes,
    cleaned_with_articles_seen = EXCLUDED.cleaned_with_articles_seen,
    cleaned_at = EXCLUDED.cleaned_at,
    published_date = EXCLUDED.published_date,
    published_utc_offset = EXCLUDED.published_utc_offset,
    modified_at = EXCLUDED.modified_at,
    authors = EXCLUDED.authors,
    site_name = EXCLUDED.site_name
RETURNING id, (xmax = 0) AS inserted, updated_at

-- name: list_articles
SELECT a.id, s.name AS site, a.url, a.title, a.author, a.published_at, a.language, a.first_seen,
       char_length(a.body) AS body_chars
FROM articles a
JOIN sites s ON s.id = a.site_id
WHERE (%(site)s::text IS NULL OR s.name = %(site)s)
  AND (%(since)s::timestamptz IS NULL OR coalesce(a.published_at, a.first_seen) >= %(since)s)
ORDER BY coalesce(a.published_at, a.first_seen) DESC, a.id DESC
LIMIT %(limit)s

-- name: show_article
-- urls: the URL as given first, then its spellings (scheme, www., trailing slash); the first stored one wins.
-- body: the published text (the line-noise-cleaned body when there is one, as corpus_articles and export have it);
-- extracted_body: the extractor's output before cleaning.
SELECT a.id, s.name AS site, a.url, a.title, a.author, a.published_at, a.language,
       coalesce(a.clean_body, a.body) AS body, a.body AS extracted_body, a.clean_body IS NOT NULL AS cleaned,
       a.body_hash, a.encoding, a.extraction_method, a.confidence, a.first_seen, a.last_seen, a.updated_at,
       d.canonical_url, d.duplicate_method, d.duplicate_score
FROM articles a
JOIN sites s ON s.id = a.site_id
LEFT JOIN article_duplicates d ON d.url = a.url
WHERE a.url = ANY(%(urls)s::text[])
ORDER BY array_position(%(urls)s::text[], a.url)
LIMIT 1

-- name: export_corpus
-- The published corpus (corpus_articles: canonical articles, cleaned body), as snapshots, search and stats read it.
SELECT c.id, c.site, c.url, c.title, c.author, c.published_at, c.language, c.body,
       c.extraction_method, c.first_seen, c.last_seen
FROM corpus_articles c
WHERE (%(site)s::text IS NULL OR c.site = %(site)s)
ORDER BY c.id

-- name: export_all_articles
-- Every stored article (near-duplicates included) with the cleaned body when there is one, else the extracted
-- body, and its duplicate link (NULL for a canonical article).
SELECT a.id, s.name AS site, a.url, a.title, a.author, a.published_at, a.language,
       coalesce(a.clean_body, a.body) AS body,
       a.extraction_method, a.first_seen, a.last_seen,
       d.canonical_url, d.duplicate_method, d.duplicate_score
FROM articles a
JOIN sites s ON s.id = a.site_id
LEFT JOIN article_duplicates d ON d.url = a.url
WHERE (%(site)s::text IS NULL OR s.name = %(site)s)
ORDER BY a.id

-- name: site_names
SELECT name FROM sites ORDER BY name

-- name: site_hosts
-- The hosts (without "www.", lower case, with a port that is not the scheme's default: newscorpus.core.site_aware.
-- url_similarity.site_of) of a site's articles.
SELECT DISTINCT regexp_replace(
           lower(substring(a.url FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(?:[wW]{3}\.)?([^/?#]+)')),
           CASE WHEN a.url ILIKE 'https:%%' THEN ':443$' ELSE ':80$' END, '')
FROM articles a
JOIN sites s ON s.id = a.site_id
WHERE s.name = %(site)s

-- name: pages_to_reextract
-- The content each URL has now: the row seen last (a page that reverted to earlier content only moves that
-- row's last_seen; fetched_at is when the content was first fetched).
SELECT DISTINCT ON (p.url) p.id, p.url, p.final_url, p.status, p.content_type, p.content_hash, p.raw_body,
       p.fetched_at, p.site_id, s.name AS site
FROM pages p
JOIN sites s ON s.id = p.site_id
WHERE p.url_kind = 'article'
  AND p.raw_body IS NOT NULL
  AND (%(site)s::text IS NULL OR s.name = %(site)s)
ORDER BY p.url, p.last_seen DESC, p.fetched_at DESC, p.id DESC

-- name: set_page_outcome
UPDATE pages SET outcome = %(outcome)s, outcome_detail = %(outcome_detail)s, encoding = %(encoding)s
WHERE id = %(page_id)s

-- name: count_rows
SELECT (SELECT count(*) FROM sites) AS sites,
       (SELECT count(*) FROM pages) AS pages,
       (SELECT count(*) FROM articles) AS articles

-- name: stored_recently
-- The stored-article check (newscorpus.crawler.middlewares.refetch), on the unique index of articles.url: the URLs of
-- %(urls)s stored and seen less than %(hours)s ago: the questions that arrived together, one round trip.
SELECT url FROM articles
WHERE url = ANY(%(urls)s::text[]) AND last_seen > now() - %(hours)s * interval '1 hour'
