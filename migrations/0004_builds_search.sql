-- Scheduled corpus builds (issue 7): one row per `newscorpus build`, its phase (for resuming after a crash)
-- and its report; the corpus as published (one view every reader goes through); the full-text search index.

CREATE TABLE builds (
    id             bigserial PRIMARY KEY,
    build_key      text NOT NULL UNIQUE,             -- the snapshot folder name: 20261122T101500Z-17
    started_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz,
    status         text NOT NULL DEFAULT 'running',  -- running, succeeded, completed_with_errors, failed, abandoned
    phase          text NOT NULL DEFAULT 'crawl',    -- crawl, maintenance, snapshot, done: where a resume starts
    sites          text[] NOT NULL,
    site_configs   jsonb NOT NULL DEFAULT '{}'::jsonb, -- site name -> config file (resume crawls the same sites)
    since          date,                             -- the snapshot holds articles first seen/published since
    out_dir        text NOT NULL,
    pid            integer,                          -- of the process running (or last running) the build
    hostname       text,
    attempts       integer NOT NULL DEFAULT 1,       -- 1 + number of resumes
    crawl_run_ids  bigint[] NOT NULL DEFAULT '{}',   -- crawl_runs of this build (their counters feed the report)
    report         jsonb NOT NULL DEFAULT '{}'::jsonb,
    error          text
);
CREATE INDEX builds_status_idx ON builds (status, started_at);

-- The corpus as published: what snapshots, search and stats read. Body = the line-noise-cleaned body when
-- there is one. Near-duplicate resolution will narrow this view to canonical articles (one place to change).
-- revised_at: when the published text last changed (extraction update or re-clean), for incremental indexing.
CREATE VIEW corpus_articles AS
SELECT a.id, a.site_id, s.name AS site, a.url, a.title, a.author, a.published_at, a.language,
       coalesce(a.clean_body, a.body) AS body, a.extraction_method, a.first_seen, a.last_seen, a.updated_at,
       greatest(a.updated_at, a.cleaned_at) AS revised_at
FROM articles a
JOIN sites s ON s.id = a.site_id
WHERE NOT EXISTS (SELECT 1 FROM near_duplicate_features d WHERE d.url = a.url AND d.canonical_id IS NOT NULL);

-- Full-text search: title and body segmented (jieba for Chinese, lower-cased words otherwise) into a
-- `simple`-configuration tsvector; filled incrementally by pipelines.build.search_index.index_search.
CREATE TABLE article_search (
    article_id  bigint PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE,
    vector      tsvector NOT NULL,
    indexed_at  timestamptz NOT NULL              -- the article's revised_at when it was indexed
);
CREATE INDEX article_search_vector_idx ON article_search USING gin (vector);
