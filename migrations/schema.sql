-- The current schema in full (what all migrations together make); keep it in step with each new
-- migration: tests/migrations/test_migrations.py checks that both give the same catalog.

-- Core corpus tables: sites, crawl runs, every fetched page (raw bytes kept), extracted articles.

CREATE TABLE sites (
    id          serial PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE crawl_runs (
    id             bigserial PRIMARY KEY,
    site_id        integer REFERENCES sites (id),
    started_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz,
    finish_reason  text,
    counters       jsonb NOT NULL DEFAULT '{}'::jsonb
);

-- One row per distinct content of a URL: a re-fetch with the same content hash only moves last_seen.
CREATE TABLE pages (
    id             bigserial PRIMARY KEY,
    site_id        integer NOT NULL REFERENCES sites (id),
    url            text NOT NULL,
    final_url      text NOT NULL,
    status         integer,
    content_type   text,
    encoding       text,
    content_hash   text NOT NULL,
    raw_body       bytea,               -- zlib-compressed page bytes, so extraction can be re-run
    raw_size       integer NOT NULL DEFAULT 0,
    url_kind       text NOT NULL,       -- what the URL looked like to the spider: article, listing, other
    outcome        text NOT NULL,       -- article, listing, not_html, too_large, decode_error, no_body, ...
    outcome_detail text,
    fetched_at     timestamptz NOT NULL,
    last_seen      timestamptz NOT NULL,
    fetch_count    integer NOT NULL DEFAULT 1,
    crawl_run_id   bigint REFERENCES crawl_runs (id),
    UNIQUE (url, content_hash)
);
CREATE INDEX pages_site_outcome_idx ON pages (site_id, outcome);
CREATE INDEX pages_final_url_idx ON pages (final_url);

CREATE TABLE articles (
    id                 bigserial PRIMARY KEY,
    site_id            integer NOT NULL REFERENCES sites (id),
    url                text NOT NULL UNIQUE,
    page_id            bigint REFERENCES pages (id),
    title              text,
    author             text,
    published_at       timestamptz,
    body               text NOT NULL,
    language           text,
    body_hash          text NOT NULL,
    encoding           text,
    extraction_method  text,
    confidence         real,
    first_seen         timestamptz NOT NULL,
    last_seen          timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL
);
CREATE INDEX articles_site_published_idx ON articles (site_id, published_at);
CREATE INDEX articles_first_seen_idx ON articles (first_seen);
